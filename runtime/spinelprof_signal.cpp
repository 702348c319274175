//===- spinelprof_signal.cpp - The sampling signal and its timer ----------===//
//
// Part of spinelprof. See spinelprof_signal.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_signal.h"

#include "spinelprof_sample_table.h"

#include <atomic>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {

// Synthetic frames, found by address like any other descriptor.
static const FrameDescriptor TruncatedFrame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_SYNTHETIC, 0, 0, "[truncated]", "",
    ""};
static const FrameDescriptor UnknownFrame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_SYNTHETIC, 0, 0, "[unknown]", "",
    ""};

// Per-thread handler state. Plain integers in initial-exec TLS: no
// destructors, and no __tls_get_addr (which may allocate) inside a handler.
#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))
static SPINELPROF_TLS int InHandler;
static SPINELPROF_TLS uint32_t CachedTid;
static SPINELPROF_TLS uint64_t PreviousCpuNs;

static std::atomic<bool> Enabled;
static std::atomic<int> InFlight;

uint64_t threadCpuNs() {
  struct timespec T;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t processCpuNs() {
  struct timespec T;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

void resetThreadAfterFork() {
  CachedTid = 0;
  PreviousCpuNs = 0;
}

/// Records the interrupted thread's own shadow stack. Async-signal-safe:
/// only syscalls from the safe list (clock_gettime, gettid, prctl, getpid)
/// and the lock-free table; no malloc, locks or stdio. Not re-entrant (the
/// caller's guard sees to that).
static void takeSample() {
  if (CachedTid == 0) {
    CachedTid = static_cast<uint32_t>(gettid());
    char Name[16] = "main";
    if (CachedTid != static_cast<uint32_t>(getpid()))
      (void)prctl(PR_GET_NAME, Name, 0, 0, 0);
    Name[15] = '\0';
    registerThread(CachedTid, Name);
  }
  uint64_t Now = threadCpuNs();
  uint64_t Weight = Now > PreviousCpuNs ? Now - PreviousCpuNs : 0;
  PreviousCpuNs = Now;

  // The interrupted code is suspended, so the stack cannot change under us;
  // the fence pairs with the push's release store of depth (abi.h).
  uint32_t Depth = __atomic_load_n(&__spinelprof_stack.depth, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_acquire);
  StackView S{__spinelprof_stack.frames, Depth, nullptr};
  if (Depth == 0) {
    S.Leaf = &UnknownFrame;
  } else if (Depth > SPINELPROF_STACK_CAPACITY) {
    S.Count = SPINELPROF_STACK_CAPACITY;
    S.Leaf = &TruncatedFrame;
    noteTruncated();
  }
  recordSample(CachedTid, S, Weight);
}

/// The SIGPROF handler. Async-signal-safe; runs on any thread, on several at
/// once; keeps errno.
static void handleProfilingSignal(int, siginfo_t *, void *) {
  int SavedErrno = errno;
  if (!InHandler) {
    InHandler = 1;
    InFlight.fetch_add(1);
    if (Enabled.load())
      takeSample();
    InFlight.fetch_sub(1);
    InHandler = 0;
  }
  errno = SavedErrno;
}

int startSampling(int Hz) {
  PreviousCpuNs = threadCpuNs();
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = handleProfilingSignal;
  // SA_RESTART: a profiling signal must not make the program's read/write
  // fail with EINTR.
  Action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Action.sa_mask);
  if (sigaction(SIGPROF, &Action, nullptr) != 0)
    return errno;
  Enabled.store(true);
  long Usec = 1000000L / Hz;
  if (Usec < 1)
    Usec = 1;
  struct itimerval Timer;
  Timer.it_interval.tv_sec = Usec / 1000000L;
  Timer.it_interval.tv_usec = Usec % 1000000L;
  Timer.it_value = Timer.it_interval;
  if (setitimer(ITIMER_PROF, &Timer, nullptr) != 0) {
    Enabled.store(false);
    return errno;
  }
  return 0;
}

void stopSampling() {
  struct itimerval Off;
  memset(&Off, 0, sizeof(Off));
  (void)setitimer(ITIMER_PROF, &Off, nullptr);
  Enabled.store(false);
  // A handler that saw Enabled before the store finishes its insert within
  // microseconds; give up after a second rather than hang an exiting program.
  for (int Spin = 0; InFlight.load() != 0 && Spin < 10000; ++Spin) {
    struct timespec Pause = {0, 100000};
    nanosleep(&Pause, nullptr);
  }
}

} // namespace spinelprof
