//===- spinelprof_flags.h - Configuration from the environment --*- C++ -*-===//
//
// Every setting is one line of SPINELPROF_FLAG_LIST, read once at start-up.
// A bad value costs one line on stderr and the default; the program always
// runs on.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_FLAGS_H
#define SPINELPROF_FLAGS_H

namespace spinelprof {

// X(type, name, environment variable, default, minimum, maximum, description)
// The minimum and maximum apply to int flags only.
#define SPINELPROF_FLAG_LIST(X)                                                \
  X(const char *, Output, "SPINEL_PROFILE", nullptr, 0, 0,                     \
    "unset or 1: profile to <program>.folded in the start-up directory; "     \
    "0: off; otherwise the output path, %p replaced by the pid")               \
  X(int, Hz, "SPINEL_PROFILE_HZ", 100, 1, 100000,                              \
    "samples per second of each thread's CPU time (cpu mode) or of wall "     \
    "time (wall mode); each costs the thread ~30-150 us on a VM "             \
    "(docs/performance.md)")                                                   \
  X(const char *, Mode, "SPINEL_PROFILE_MODE", "cpu", 0, 0,                    \
    "cpu: sample threads as they use CPU; wall: sample every registered "     \
    "thread on the wall clock, running or blocked")                            \
  X(const char *, Weight, "SPINEL_PROFILE_WEIGHT", "samples", 0, 0,            \
    "the unit of the folded file: samples (counts) or time (microseconds)")   \
  X(int, FlushSec, "SPINEL_PROFILE_FLUSH_SEC", 0, 0, 86400,                    \
    "N > 0: also write the profile so far every N seconds")                    \
  X(bool, Quiet, "SPINEL_PROFILE_QUIET", false, 0, 0,                          \
    "1: no summary line on stderr at exit")                                    \
  X(bool, Alloc, "SPINEL_PROFILE_ALLOC", false, 0, 0,                          \
    "1: also sample allocations, to <name>.alloc.folded")                      \
  X(int, AllocRate, "SPINEL_PROFILE_ALLOC_RATE", 524288, 1, 1073741824,        \
    "mean bytes between allocation samples; 1: record every allocation")      \
  X(int, TimelineMb, "SPINEL_PROFILE_TIMELINE_MB", 32, 0, 65536,               \
    "MiB of memory at most for the samples' timeline (each thread's "         \
    "samples in order); past it, older events merge into coarser buckets; "   \
    "0: no timeline")

/// The parsed configuration. Plain data, so it needs no constructor.
struct Flags {
#define SPINELPROF_FLAG_FIELD(Type, Name, Env, Default, Min, Max, Help)        \
  Type Name;
  SPINELPROF_FLAG_LIST(SPINELPROF_FLAG_FIELD)
#undef SPINELPROF_FLAG_FIELD
};

/// Reads every flag from the environment, printing one line per bad value.
/// Start-up only (calls getenv); not for signal handlers.
void parseFlags(Flags &Out);

} // namespace spinelprof

#endif // SPINELPROF_FLAGS_H
