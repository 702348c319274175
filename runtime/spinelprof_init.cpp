//===- spinelprof_init.cpp - Start-up and exit of the profiler ------------===//
//
// A constructor reads the configuration, settles the output path and starts
// the timer before the program's own constructors run; an atexit hook stops
// sampling and writes the profile. Neither ever calls exit or changes what
// the program prints or returns.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_alloc.h"
#include "spinelprof_crash.h"
#include "spinelprof_flags.h"
#include "spinelprof_flush_thread.h"
#include "spinelprof_interpose.h"
#include "spinelprof_io.h"
#include "spinelprof_native.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_scratch.h"
#include "spinelprof_clock.h"
#include "spinelprof_signal.h"
#include "spinelprof_threads.h"
#include "spinelprof_timeline.h"
#include "spinelprof_writer.h"

#include <atomic>
#include <signal.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern "C" {
/// Referenced from spinelprof_shadow_stack.cpp so that linking the shadow
/// stack links this file, and with it the constructor below.
__attribute__((used)) extern const char __spinelprof_init_anchor = 0;
}

namespace spinelprof {

namespace {
/// Everything settled at start-up that the exit hook needs. Plain data.
struct ProfilerState {
  bool Active;
  Flags Config;
  int Pid;
  bool Wall;
  bool WeightTime;
  char *FoldedPath;
  /// Null when the folded path's target is a device or FIFO at start-up.
  char *SprofPath;
  /// The allocation profile's paths; null unless SPINEL_PROFILE_ALLOC=1.
  char *AllocFoldedPath;
  char *AllocSprofPath;
  /// The folded path with "%p" unexpanded (absolute), for fork children;
  /// null when the path has no %p (a child inserts ".<pid>" instead).
  char *PathTemplate;
  char *Command;
  size_t CommandSize;
  uint64_t StartRealtimeNs;
  uint64_t StartMonotonicNs;
};
ProfilerState State;
/// Set by whichever writes the final profile first (exit, or a fatal
/// SIGINT/SIGTERM), so the other does not.
std::atomic<bool> FinalWritten;
/// One writer at a time: a periodic flush and the final write.
pthread_mutex_t WriteLock = PTHREAD_MUTEX_INITIALIZER;
} // namespace

/// Reads /proc/self/cmdline into a buffer of NUL-separated arguments, from
/// scratchAlloc: the runtime's start-up takes nothing from the program's
/// heap (test/Runtime/untouched-heap.c). Start-up only.
static char *readCommandLine(size_t &Size) {
  Size = 0;
  int FD;
  do
    FD = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  while (FD < 0 && errno == EINTR);
  if (FD < 0)
    return nullptr;
  size_t Capacity = 4096;
  char *Data = static_cast<char *>(scratchAlloc(Capacity));
  while (Data) {
    if (Size == Capacity) {
      char *Bigger = static_cast<char *>(scratchRealloc(Data, Capacity * 2));
      if (!Bigger)
        break;
      Data = Bigger;
      Capacity *= 2;
    }
    ssize_t N = read(FD, Data + Size, Capacity - Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Size += static_cast<size_t>(N);
  }
  close(FD);
  return Data;
}

/// A name from spinelprof/output.h (Derive(Out, Size) returns its
/// length) in a string from scratchAlloc (not the program's heap), or null.
/// Start-up and fork child only.
template <typename Derive> static char *scratchPath(Derive Name) {
  size_t Size = Name(nullptr, 0) + 1;
  char *Out = static_cast<char *>(scratchAlloc(Size));
  if (Out && Name(Out, Size) >= Size) {
    scratchFree(Out);
    Out = nullptr;
  }
  return Out;
}

/// The absolute folded path (output::foldedPathFor): Spec with %p expanded
/// (kept when Pid < 0), or the default <cwd>/<program basename>.folded when
/// Spec is null. Relative paths are taken against the start-up directory,
/// so a later chdir does not move the profile. Returns a scratchPath string
/// or null. Start-up and fork child only.
static char *resolveOutputPath(const char *Spec, int Pid) {
  char Cwd[PATH_MAX] = "";
  if ((!Spec || Spec[0] != '/') && !getcwd(Cwd, sizeof(Cwd)))
    return nullptr;
  const char *Program = State.CommandSize ? State.Command : "";
  return scratchPath([&](char *Out, size_t Size) {
    return output::foldedPathFor(Out, Size, Spec, Cwd, Program, Pid);
  });
}

static char *sprofPathOf(const char *Folded) {
  return scratchPath([&](char *Out, size_t Size) {
    return output::sprofPathFor(Out, Size, Folded);
  });
}

static char *allocPathOf(const char *Folded) {
  return scratchPath([&](char *Out, size_t Size) {
    return output::allocPathFor(Out, Size, Folded);
  });
}

/// Whether a profile can be written to Path (docs/formats.md, "Output
/// paths"): for a regular or new file, a file can be created beside its
/// final target (a probe, removed at once); a device or FIFO is only
/// checked for write permission (opening a FIFO would end its reader's
/// input). Returns 0 or an errno, with Kind the target's kind and Problem
/// the words for the errno where strerror's would mislead (else null).
/// Leaves nothing behind. Start-up only; the write at exit is the
/// authoritative check.
static int checkWritable(const char *Path, int Pid, output::TargetKind &Kind,
                         const char *&Problem) {
  output::Target T;
  Problem = nullptr;
  int Err = output::resolveTarget(Path, T);
  if (!Err && (Err = output::checkKind(T)) != 0)
    Problem = output::describeProblem(Err, T);
  if (Err)
    return Err;
  Kind = T.Kind;
  if (!output::isRegular(T.Kind))
    return faccessat(AT_FDCWD, T.Path, W_OK, AT_EACCESS) == 0 ? 0 : errno;
  char Probe[PATH_MAX + 32];
  if (output::temporaryPathFor(Probe, sizeof(Probe), T.Path, Pid) >=
      sizeof(Probe))
    return ENAMETOOLONG;
  // A signal that kills the program between open and unlink would leave the
  // probe behind (test/Stress/signals.c found it: SIGTERM during start-up),
  // so every signal waits the few microseconds until it is gone; it is then
  // delivered as it would have been.
  sigset_t All, Saved;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, &Saved);
  int FD;
  do
    FD = open(Probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
              0600);
  while (FD < 0 && errno == EINTR);
  Err = FD < 0 && errno != EEXIST ? errno : 0;
  if (FD >= 0) {
    close(FD);
    unlink(Probe);
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  return Err;
}

/// The folded path of a fork child with pid Pid: the template's %p
/// expanded, or output::forkChildPathFor (".<pid>" inserted before
/// ".folded") when the parent's folded path is a regular file; null when it
/// is a device or FIFO (no file is made beside those: the child is not
/// profiled) or on failure. A scratchPath string.
static char *childFoldedPath(int Pid) {
  if (State.PathTemplate)
    return resolveOutputPath(State.PathTemplate, Pid);
  const char *Path = State.FoldedPath;
  output::TargetKind Kind;
  if (targetKindOf(Path, Kind) == 0 && !output::isRegular(Kind))
    return nullptr;
  return scratchPath([&](char *Out, size_t Size) {
    return output::forkChildPathFor(Out, Size, Path, Pid);
  });
}

/// In the child of fork: its own (empty) profile at its own path, and
/// sampling re-armed.
static void atForkChild() {
  if (!State.Active)
    return;
  int Pid = getpid();
  char *Folded = childFoldedPath(Pid);
  char *Sprof = Folded ? sprofPathOf(Folded) : nullptr;
  if (!Sprof) {
    scratchFree(Folded);
    State.Active = false; // Nowhere to write: the child is not profiled.
    return;
  }
  State.FoldedPath = Folded; // The parent's strings stay (the child's copy).
  State.SprofPath = Sprof;
  if (State.AllocFoldedPath) {
    resetAllocationsAfterFork();
    char *AllocFolded = allocPathOf(Folded);
    char *AllocSprof = AllocFolded ? sprofPathOf(AllocFolded) : nullptr;
    if (AllocSprof) {
      State.AllocFoldedPath = AllocFolded;
      State.AllocSprofPath = AllocSprof;
    } else {
      scratchFree(AllocFolded);
      State.AllocFoldedPath = State.AllocSprofPath = nullptr;
    }
  }
  State.Pid = Pid;
  State.StartRealtimeNs = clockNs(CLOCK_REALTIME);
  State.StartMonotonicNs = clockNs(CLOCK_MONOTONIC);
  resetTimeline(State.StartMonotonicNs);
  pthread_mutex_init(&WriteLock, nullptr);
  restartSamplingAfterFork();
}

/// The program's CPU time when writeInCopy made its copy, or 0.
static uint64_t CopiedCpuNs;
/// The crash signal the profile is written after (writeAfterCrash), or 0.
static int CrashSignal;

/// Writes the profile as it stands (writeProfile: both files, atomically,
/// and the allocation profile's two when it is on and the folded stacks
/// went to a regular file). Final is false for a periodic flush. Returns 0
/// or the first errno, Result.FailedPath naming the file. Normal context.
static int writeNow(WriteResult &Result, WriteResult &AllocResult,
                    RunInfo &Run, bool Final) {
  Run.Command = State.Command;
  Run.CommandSize = State.CommandSize;
  Run.Pid = State.Pid;
  Run.StartTimeNs = State.StartRealtimeNs;
  Run.DurationNs = clockNs(CLOCK_MONOTONIC) - State.StartMonotonicNs;
  // In the copy that writes for a signal, the program's CPU time is the
  // one read before the copy was made (the copy's own is nearly none).
  Run.CpuTimeNs = CopiedCpuNs ? CopiedCpuNs : processCpuNs();
  Run.RequestedHz = State.Config.Hz;
  Run.Wall = State.Wall;
  Run.WeightTime = State.WeightTime;
  Run.AllocRate = static_cast<uint64_t>(State.Config.AllocRate);
  memset(&AllocResult, 0, sizeof(AllocResult));
  pthread_mutex_lock(&WriteLock);
  int Err = writeProfile(State.FoldedPath, State.SprofPath, Run, Result,
                         ProfileType::Cpu, Final);
  if (!Err && State.AllocFoldedPath && !Result.InPlace) {
    Err = writeProfile(State.AllocFoldedPath, State.AllocSprofPath, Run,
                       AllocResult, ProfileType::Alloc, Final);
    if (Err) {
      Result.FailedPath = AllocResult.FailedPath;
      Result.Problem = AllocResult.Problem;
    }
  }
  pthread_mutex_unlock(&WriteLock);
  return Err;
}

/// SPINEL_PROFILE_FLUSH_SEC: the profile so far, on the flush thread.
static void flushProfile() {
  static bool Reported;
  WriteResult Result, AllocResult;
  RunInfo Run;
  if (FinalWritten.load())
    return;
  int Err = writeNow(Result, AllocResult, Run, /*Final=*/false);
  if (Err && !Reported) {
    Reported = true;
    printMessage("cannot write profile '%s': %s", Result.FailedPath,
                 Result.Problem ? Result.Problem : strerror(Err));
  }
}

/// True while writeFinalProfile writes (handleTerminatingSignal waits).
static std::atomic<bool> FinalWriting{false};

/// The summary line of a final write: its result, or why it failed.
static void reportFinalWrite(int Err, const WriteResult &Result,
                             const WriteResult &AllocResult,
                             const RunInfo &Run) {
  if (Err) {
    printMessage("cannot write profile '%s': %s", Result.FailedPath,
                 Result.Problem ? Result.Problem : strerrordesc_np(Err));
    return;
  }
  if (State.Config.Quiet)
    return;
  char Extra[64] = "";
  if (Result.Truncated)
    snprintf(Extra, sizeof(Extra), ", %llu truncated",
             (unsigned long long)Result.Truncated);
  uint64_t Centis = (Run.DurationNs + 5000000) / 10000000;
  // The allocation profile, when on, at the end of the same line.
  char Alloc[PATH_MAX + 96] = "";
  if (State.AllocFoldedPath && !Result.InPlace)
    snprintf(Alloc, sizeof(Alloc),
             "; about %llu allocations, %llu bytes, wrote %s",
             (unsigned long long)AllocResult.SampleCount,
             (unsigned long long)AllocResult.Bytes, State.AllocFoldedPath);
  printMessage("%llu samples (%d Hz requested, %llu Hz achieved%s), %llu "
               "dropped%s, %llu.%02llu s, wrote %s%s%s%s%s",
               (unsigned long long)Result.SampleCount, Run.RequestedHz,
               (unsigned long long)(Result.AchievedHz + 0.5),
               Run.Wall ? ", wall clock" : "",
               (unsigned long long)Result.Dropped, Extra,
               (unsigned long long)(Centis / 100),
               (unsigned long long)(Centis % 100), State.FoldedPath, Alloc,
               CrashSignal ? " (after " : "",
               CrashSignal ? crashSignalName(CrashSignal) : "",
               CrashSignal ? ")" : "");
}

/// Stops sampling, writes the profile and prints the summary, once.
/// Normal context (exit, or the flush thread for a fatal signal); keeps
/// errno. InCopy: in the copy of the process that writes for a signal
/// (writeInCopy), whose pid differs.
static void writeFinalProfile(bool InCopy = false) {
  // First of all: a sample from here on would stand for the profiler's own
  // exit. A signal still in flight from another CPU (tens to hundreds of
  // microseconds late) landed in this function's first lines in 1 of 10
  // loaded runs of tools/cc-end-to-end.c, and one pending would come on
  // the return of its first system call.
  holdSamplesForExit();
  int SavedErrno = errno;
  // SIGINT/SIGTERM wait until the files are renamed into place: blocked on
  // this thread (its handler could not wait for the writer it interrupted),
  // and on any other thread the handler waits for FinalWriting to clear.
  sigset_t Terminating, Saved;
  sigemptyset(&Terminating);
  sigaddset(&Terminating, SIGINT);
  sigaddset(&Terminating, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &Terminating, &Saved);
  // A child made without fork's handlers (raw clone) is not this profile.
  if (State.Active && (InCopy || getpid() == State.Pid) &&
      !FinalWritten.exchange(true)) {
    FinalWriting.store(true);
    stopSampling();
    RunInfo Run;
    WriteResult Result, AllocResult;
    int Err = writeNow(Result, AllocResult, Run, /*Final=*/true);
    reportFinalWrite(Err, Result, AllocResult, Run);
    FinalWriting.store(false);
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  errno = SavedErrno;
}

/// Runs once from exit(), after the program's own atexit handlers (it was
/// registered before them); never calls exit.
static void writeProfileAtExit() { writeFinalProfile(); }

static void writeOnFlushThread(int) { writeFinalProfile(); }

/// Waits up to TimeoutMs for the copy Child to end, killing it at the
/// deadline; true when it exited (rather than being killed or crashing).
/// A deadline, not a count of pauses: on a loaded machine each pause takes
/// several times the 100 us asked. Async-signal-safe (wait4, nanosleep,
/// kill).
static bool awaitCopy(long Child, int TimeoutMs) {
  int Status = 0;
  bool Done = false;
  uint64_t Deadline = monotonicNs() + uint64_t(TimeoutMs) * 1000000u;
  while (monotonicNs() < Deadline) {
    long R = syscall(SYS_wait4, Child, &Status, __WALL | WNOHANG, nullptr);
    if (R == Child) {
      Done = true;
      break;
    }
    if (R < 0 && errno != EINTR)
      break;
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
  if (!Done) { // A copy stuck in a heap this process left halfway.
    syscall(SYS_kill, Child, SIGKILL);
    syscall(SYS_wait4, Child, &Status, __WALL, nullptr);
  }
  return Done && WIFEXITED(Status);
}

/// The profile the copy did not write: one line saying so ("... at the
/// signal", or after which crash; no snprintf here) and its temporary
/// files removed. Async-signal-safe (write, unlink).
static void reportLostProfile() {
  char Lost[96] = "spinelprof: the profile could not be written ";
  size_t N = strlen(Lost);
  const char *Parts[] = {CrashSignal ? "after " : "at the signal",
                         CrashSignal ? crashSignalName(CrashSignal) : "", "\n"};
  for (const char *Part : Parts)
    for (size_t I = 0; Part[I] && N < sizeof(Lost); ++I)
      Lost[N++] = Part[I];
  (void)writeAll(2, Lost, N);
  removeTemporaryOf(State.FoldedPath, State.Pid);
  removeTemporaryOf(State.SprofPath, State.Pid);
  removeTemporaryOf(State.AllocFoldedPath, State.Pid);
  removeTemporaryOf(State.AllocSprofPath, State.Pid);
}

/// SIGINT/SIGTERM without a flush thread, and a crash (writeAfterCrash):
/// the interrupted code may be anywhere, inside malloc or stdio too, so the
/// writer runs in a copy of the process (clone without CLONE_VM and
/// without an exit signal: the program sees no SIGCHLD and no child to
/// wait for), and this thread waits for it, bounded. The writer takes no
/// memory from malloc, but a copy that fails or hangs all the same costs
/// the profile, never the program: its temporary files are removed.
/// The copy is given TimeoutMs (30 s for SIGINT/SIGTERM: a large profile
/// on a slow disk; a crash gives it 5 s), then killed; it is killed too
/// when the thread waiting for it dies (PR_SET_PDEATHSIG: the process was
/// killed meanwhile). One copy per process: a second signal finds the
/// first one's under way and returns. Async-signal-safe (clone, prctl,
/// awaitCopy, reportLostProfile).
static void writeInCopy(int TimeoutMs = 30000) {
  static std::atomic<bool> CopyMade{false};
  if (!State.Active || getpid() != State.Pid || FinalWritten.load() ||
      CopyMade.exchange(true))
    return;
  stopSampling();
  CopiedCpuNs = processCpuNs();
  long Child = syscall(SYS_clone, 0L, nullptr, nullptr, nullptr, nullptr);
  if (Child == 0) {
    crashCopyStarted(); // A fault here ends the copy, without a core.
    // Killed with the thread that waits for it: a copy that hangs must
    // not outlive a parent someone killed (Runtime/copy-parent-death.c).
    syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L);
    if (syscall(SYS_getppid) != State.Pid)
      syscall(SYS_exit_group, 1); // The parent died before the prctl.
    writeFinalProfile(/*InCopy=*/true);
    syscall(SYS_exit_group, 0);
  }
  if (Child < 0)
    return;
  if (!awaitCopy(Child, TimeoutMs))
    reportLostProfile();
  FinalWritten.store(true);
}

/// A crash signal (spinelprof_crash.h): the profile is written by a copy
/// of the process, given 5 s; an exit-time write under way on another
/// thread is given 5 s to finish. Async-signal-safe.
static void writeAfterCrash(int Signal) {
  CrashSignal = Signal; // For the copy's summary line.
  writeInCopy(5000);
  for (int Ms = 0; FinalWriting.load() && Ms < 50000; ++Ms) {
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
}

/// SIGINT/SIGTERM, installed only over the default disposition: the
/// profile is written (by the flush thread, or by a copy of a program
/// that has one thread, while this thread waits),
/// then the signal is re-raised with the default action, so the process
/// ends as it would have. Async-signal-safe.
static void handleTerminatingSignal(int Signal) {
  int SavedErrno = errno;
  if (flushThreadRuns())
    (void)runOnFlushThread(writeOnFlushThread, Signal, 5000);
  else
    writeInCopy();
  // The exit-time write under way on another thread: let it finish (5 s).
  for (int Ms = 0; FinalWriting.load() && Ms < 50000; ++Ms) {
    struct timespec Pause = {0, 100000};
    nanosleep(&Pause, nullptr);
  }
  struct sigaction Default;
  memset(&Default, 0, sizeof(Default));
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Signal, &Default, nullptr);
  sigset_t Unblock;
  sigemptyset(&Unblock);
  sigaddset(&Unblock, Signal);
  pthread_sigmask(SIG_UNBLOCK, &Unblock, nullptr);
  raise(Signal);
  errno = SavedErrno; // Only if the signal is caught after all.
}

/// SIGINT and SIGTERM write the profile, where their disposition is the
/// default (installOverDefault). Start-up only.
static void installTerminatingHandlers() {
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_handler = handleTerminatingSignal;
  sigemptyset(&Action.sa_mask);
  Action.sa_flags = SA_RESTART;
  (void)installOverDefault(SIGINT, Action);
  (void)installOverDefault(SIGTERM, Action);
}

/// Settles the profile's paths (docs/formats.md, "Output paths"): the
/// folded path, its %p template, and the .sprof beside it when the folded
/// path's target (Kind) is a regular file. Returns false, after one line on
/// stderr, when there is nowhere to write. Start-up only.
static bool settleOutputPaths(const char *Output, output::TargetKind &Kind) {
  State.FoldedPath = resolveOutputPath(Output, State.Pid);
  if (!State.FoldedPath) {
    printMessage("cannot resolve the profile path '%s': %s; profiling is off",
                 Output ? Output : "(default)", strerror(errno));
    return false;
  }
  if (Output && strstr(Output, "%p"))
    State.PathTemplate = resolveOutputPath(Output, -1);
  const char *BadPath = State.FoldedPath, *Problem;
  int Err = checkWritable(State.FoldedPath, State.Pid, Kind, Problem);
  if (!Err && output::isRegular(Kind)) {
    output::TargetKind SprofKind;
    State.SprofPath = sprofPathOf(State.FoldedPath);
    BadPath = State.SprofPath ? State.SprofPath : BadPath;
    Err = State.SprofPath ? checkWritable(State.SprofPath, State.Pid,
                                          SprofKind, Problem)
                          : ENOMEM;
  }
  if (Err) {
    printMessage("cannot write profile '%s': %s; profiling is off", BadPath,
                 Problem ? Problem : strerror(Err));
    return false;
  }
  return true;
}

/// SPINEL_PROFILE_ALLOC=1: the allocation profile's paths, and allocation
/// sampling started; off, after one line on stderr, when the folded stacks
/// go to a device or FIFO (FoldedKind: no file is made beside those) or
/// sampling cannot start. Start-up only.
static void startAllocationProfile(output::TargetKind FoldedKind) {
  if (!output::isRegular(FoldedKind)) {
    printMessage("'%s' is a %s, which takes the folded stacks alone; "
                 "allocation profiling is off",
                 State.FoldedPath, output::kindName(FoldedKind));
    return;
  }
  State.AllocFoldedPath = allocPathOf(State.FoldedPath);
  State.AllocSprofPath =
      State.AllocFoldedPath ? sprofPathOf(State.AllocFoldedPath) : nullptr;
  int Err = State.AllocSprofPath
                ? startAllocationSampling(
                      static_cast<uint64_t>(State.Config.AllocRate))
                : ENOMEM;
  if (Err) {
    printMessage("cannot sample allocations: %s; allocation profiling is off",
                 strerror(Err));
    State.AllocFoldedPath = State.AllocSprofPath = nullptr;
  }
}

/// Reads the flags into State (a bad value: one message, the default) and
/// returns the folded profile's path as given (nullptr: the default).
/// Single-threaded start-up.
static const char *readConfig() {
  parseFlags(State.Config);
  const char *Output = State.Config.Output;
  if (Output && strcmp(Output, "1") == 0)
    Output = nullptr;
  if (strcmp(State.Config.Mode, "wall") == 0) {
    State.Wall = true;
  } else if (strcmp(State.Config.Mode, "cpu") != 0) {
    printMessage("SPINEL_PROFILE_MODE='%s' is not cpu or wall; using cpu",
                 State.Config.Mode);
  }
  if (getenv("SPINEL_PROFILE_TIMER"))
    printMessage("SPINEL_PROFILE_TIMER is no longer read: each thread has "
                 "its own timer");
  if (strcmp(State.Config.Weight, "time") == 0) {
    State.WeightTime = true;
  } else if (strcmp(State.Config.Weight, "samples") != 0) {
    printMessage("SPINEL_PROFILE_WEIGHT='%s' is not samples or time; using "
                 "samples",
                 State.Config.Weight);
  }
  return Output;
}

/// Reserves the samples', the timeline's and the threads' memory; false
/// (after one message) when profiling cannot run. A timeline that does not
/// fit only leaves the profile without one. Single-threaded start-up.
static bool reserveProfileMemory() {
  int Err;
  if ((Err = initSampleTable()) != 0) {
    printMessage("cannot reserve memory for samples: %s; profiling is off",
                 strerror(Err));
    return false;
  }
  if ((Err = initTimeline(unsigned(State.Config.TimelineMb),
                          State.StartMonotonicNs)) != 0)
    printMessage("cannot reserve %d MiB for the timeline: %s; the profile "
                 "has no timeline",
                 State.Config.TimelineMb, strerror(Err));
  if ((Err = initThreads()) != 0) {
    printMessage("cannot register threads: %s; profiling is off",
                 strerror(Err));
    return false;
  }
  return true;
}

/// Starts the sampler and what writes the profile (at exit, in a fork's
/// child, periodically, on a terminating signal or a crash). State.Active
/// stays false when the sampler cannot start. Single-threaded start-up.
static void startProfiling(output::TargetKind FoldedKind) {
  // Before any sample: the handler looks program counters up in it.
  (void)initNativeFrames();
  if (State.Config.Alloc)
    startAllocationProfile(FoldedKind);
  State.Active = true;
  atexit(writeProfileAtExit);
  pthread_atfork(nullptr, nullptr, atForkChild);
  SamplerConfig Sampler = {State.Config.Hz, State.Wall};
  if (int Err = startSampling(Sampler)) {
    State.Active = false;
    stopAllocationSampling();
    if (Err == ENOTSUP)
      printMessage("the program handles signal SIGRTMAX-2, which profiling "
                   "uses; profiling is off");
    else
      printMessage("cannot start the profiling timer: %s; profiling is off",
                   strerror(Err));
    return;
  }
  if (State.Config.FlushSec > 0)
    if (int FlushErr = startFlushThread(State.Config.FlushSec, flushProfile))
      printMessage("cannot start the flush thread: %s; no periodic flush",
                   strerror(FlushErr));
  installTerminatingHandlers();
  installCrashHandlers(writeAfterCrash);
}

/// Sets the profiler up (State.Active when it runs), all but the main
/// thread's timer. Single-threaded start-up; the caller keeps errno.
static void setUpProfiler() {
  // Off means silent too: not even a bad value of another flag is reported.
  if (const char *Env = getenv("SPINEL_PROFILE"); Env && strcmp(Env, "0") == 0)
    return;
  const char *Output = readConfig();
  State.Pid = getpid();
  State.StartRealtimeNs = clockNs(CLOCK_REALTIME);
  State.StartMonotonicNs = clockNs(CLOCK_MONOTONIC);
  State.Command = readCommandLine(State.CommandSize);
  output::TargetKind FoldedKind;
  if (settleOutputPaths(Output, FoldedKind) && reserveProfileMemory())
    startProfiling(FoldedKind);
}

/// Starts the profiler. Runs once, single-threaded, before the program's
/// constructors (priority 101 is the earliest not reserved). The main
/// thread's timer starts last, so the profile begins where the program
/// does and no sample stands for the profiler's own start-up.
__attribute__((constructor(101))) static void startProfiler() {
  int SavedErrno = errno;
  resolveRealFunctions(); // Before the timer: no sample of its dlsym.
  setUpProfiler();
  settleAllocationSampling(); // Off unless setUpProfiler started it.
  if (State.Active)
    startMainThreadTimer();
  errno = SavedErrno;
}

} // namespace spinelprof
