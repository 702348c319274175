//===- spinelprof_init.cpp - Start-up and exit of the profiler ------------===//
//
// A constructor reads the configuration, settles the output path and starts
// the timer before the program's own constructors run; an atexit hook stops
// sampling and writes the profile. Neither ever calls exit or changes what
// the program prints or returns.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_alloc.h"
#include "spinelprof_flags.h"
#include "spinelprof_io.h"
#include "spinelprof_native.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_scratch.h"
#include "spinelprof_signal.h"
#include "spinelprof_threads.h"
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

/// Reads /proc/self/cmdline into a malloc'd buffer of NUL-separated
/// arguments. Start-up only.
static char *readCommandLine(size_t &Size) {
  Size = 0;
  int FD;
  do
    FD = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  while (FD < 0 && errno == EINTR);
  if (FD < 0)
    return nullptr;
  size_t Capacity = 4096;
  char *Data = static_cast<char *>(malloc(Capacity));
  while (Data) {
    if (Size == Capacity) {
      char *Bigger = static_cast<char *>(realloc(Data, Capacity * 2));
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

/// Appends Text to the malloc'd string Out (which may be null).
static bool append(char *&Out, size_t &Len, const char *Text, size_t N) {
  char *Bigger = static_cast<char *>(realloc(Out, Len + N + 1));
  if (!Bigger)
    return false;
  Out = Bigger;
  memcpy(Out + Len, Text, N);
  Len += N;
  Out[Len] = '\0';
  return true;
}

/// The absolute folded path: Spec with %p expanded, or the default
/// <cwd>/<program basename>.folded when Spec is null. Relative paths are
/// taken against the start-up directory, so a later chdir does not move the
/// profile. Returns a malloc'd string or null. Start-up only.
static char *resolveOutputPath(const char *Spec, int Pid) {
  char *Out = nullptr;
  size_t Len = 0;
  bool Ok = true;
  if (!Spec || Spec[0] != '/') {
    char Cwd[PATH_MAX];
    if (!getcwd(Cwd, sizeof(Cwd)))
      return nullptr;
    Ok = append(Out, Len, Cwd, strlen(Cwd));
    if (Ok && (Len == 0 || Out[Len - 1] != '/'))
      Ok = append(Out, Len, "/", 1);
  }
  if (!Spec) {
    const char *Program = State.CommandSize ? State.Command : "";
    const char *Base = strrchr(Program, '/');
    Base = Base ? Base + 1 : Program;
    if (!*Base)
      Base = "a.out";
    Ok = Ok && append(Out, Len, Base, strlen(Base)) &&
         append(Out, Len, ".folded", 7);
    return Ok ? Out : (free(Out), nullptr);
  }
  for (const char *P = Spec; *P && Ok; ++P) {
    if (P[0] == '%' && P[1] == 'p' && Pid >= 0) {
      char Digits[16];
      int N = snprintf(Digits, sizeof(Digits), "%d", Pid);
      Ok = append(Out, Len, Digits, static_cast<size_t>(N));
      ++P;
    } else {
      Ok = append(Out, Len, P, 1);
    }
  }
  return Ok ? Out : (free(Out), nullptr);
}

/// Whether Path can be written: not a directory, and a file can be created
/// beside it. Returns 0 or an errno. Leaves nothing behind. Start-up only;
/// the write at exit is the authoritative check.
static int checkWritable(const char *Path, int Pid) {
  struct stat St;
  if (stat(Path, &St) == 0 && S_ISDIR(St.st_mode))
    return EISDIR;
  char *Probe = temporaryPathFor(Path, Pid);
  if (!Probe)
    return ENOMEM;
  // A signal that kills the program between open and unlink would leave the
  // probe behind (test/Stress/signals.c found it: SIGTERM during start-up),
  // so every signal waits the few microseconds until it is gone; it is then
  // delivered as it would have been.
  sigset_t All, Saved;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, &Saved);
  int FD;
  do
    FD = open(Probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  while (FD < 0 && errno == EINTR);
  int Err = FD < 0 && errno != EEXIST ? errno : 0;
  if (FD >= 0) {
    close(FD);
    unlink(Probe);
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  scratchFree(Probe);
  return Err;
}

/// The folded path of a fork child with pid Pid: the template's %p
/// expanded, or ".<pid>" inserted before ".folded". Malloc'd or null.
static char *childFoldedPath(int Pid) {
  if (State.PathTemplate)
    return resolveOutputPath(State.PathTemplate, Pid);
  const char *Path = State.FoldedPath;
  size_t Len = strlen(Path), Keep = Len;
  if (Len >= 7 && strcmp(Path + Len - 7, ".folded") == 0)
    Keep = Len - 7;
  size_t Size = Len + 24;
  char *Out = static_cast<char *>(malloc(Size));
  if (Out)
    snprintf(Out, Size, "%.*s.%d%s", int(Keep), Path, Pid, Path + Keep);
  return Out;
}

/// In the child of fork: its own (empty) profile at its own path, and
/// sampling re-armed.
static void atForkChild() {
  if (!State.Active)
    return;
  int Pid = getpid();
  char *Folded = childFoldedPath(Pid);
  char *Sprof = Folded ? sprofPathFor(Folded) : nullptr;
  if (!Sprof) {
    free(Folded);
    State.Active = false; // Nowhere to write: the child is not profiled.
    return;
  }
  State.FoldedPath = Folded; // The parent's strings stay (the child's copy).
  State.SprofPath = Sprof;
  if (State.AllocFoldedPath) {
    resetAllocationsAfterFork();
    char *AllocFolded = allocPathFor(Folded);
    char *AllocSprof = AllocFolded ? sprofPathFor(AllocFolded) : nullptr;
    if (AllocSprof) {
      State.AllocFoldedPath = AllocFolded;
      State.AllocSprofPath = AllocSprof;
    } else {
      free(AllocFolded);
      State.AllocFoldedPath = State.AllocSprofPath = nullptr;
    }
  }
  State.Pid = Pid;
  State.StartRealtimeNs = clockNs(CLOCK_REALTIME);
  State.StartMonotonicNs = clockNs(CLOCK_MONOTONIC);
  pthread_mutex_init(&WriteLock, nullptr);
  restartSamplingAfterFork();
}

/// The program's CPU time when writeInCopy made its copy, or 0.
static uint64_t CopiedCpuNs;

/// Writes the profile as it stands (both files, atomically, and the
/// allocation profile's two when it is on). Returns 0 or the first errno,
/// Result.FailedPath naming the file. Normal context.
static int writeNow(WriteResult &Result, WriteResult &AllocResult,
                    RunInfo &Run) {
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
  int Err = writeProfile(State.FoldedPath, State.SprofPath, Run, Result);
  if (!Err && State.AllocFoldedPath) {
    Err = writeProfile(State.AllocFoldedPath, State.AllocSprofPath, Run,
                       AllocResult, ProfileType::Alloc);
    if (Err)
      Result.FailedPath = AllocResult.FailedPath;
  }
  pthread_mutex_unlock(&WriteLock);
  return Err;
}

/// SPINEL_PROFILE_FLUSH_SEC: the profile so far, on the sampler thread.
static void flushProfile() {
  static bool Reported;
  WriteResult Result, AllocResult;
  RunInfo Run;
  if (FinalWritten.load())
    return;
  int Err = writeNow(Result, AllocResult, Run);
  if (Err && !Reported) {
    Reported = true;
    printMessage("cannot write profile '%s': %s", Result.FailedPath,
                 strerror(Err));
  }
}

/// Stops sampling, writes the profile and prints the summary, once.
/// Normal context (exit, or the sampler thread for a fatal signal); keeps
/// errno.
/// True while writeFinalProfile writes (handleTerminatingSignal waits).
static std::atomic<bool> FinalWriting{false};

/// InCopy: in the copy of the process that writes for a signal
/// (writeInCopy), whose pid differs.
static void writeFinalProfile(bool InCopy = false) {
  // A child made without fork's handlers (raw clone) is not this profile.
  if (!State.Active || (!InCopy && getpid() != State.Pid) ||
      FinalWritten.exchange(true))
    return;
  int SavedErrno = errno;
  // SIGINT/SIGTERM wait until the files are renamed into place: blocked on
  // this thread (its handler could not wait for the writer it interrupted),
  // and on any other thread the handler waits for FinalWriting to clear.
  sigset_t Terminating, Saved;
  sigemptyset(&Terminating);
  sigaddset(&Terminating, SIGINT);
  sigaddset(&Terminating, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &Terminating, &Saved);
  FinalWriting.store(true);
  stopSampling();
  RunInfo Run;
  WriteResult Result, AllocResult;
  int Err = writeNow(Result, AllocResult, Run);
  if (Err) {
    printMessage("cannot write profile '%s': %s", Result.FailedPath,
                 strerrordesc_np(Err));
  } else if (!State.Config.Quiet) {
    char Extra[64] = "";
    if (Result.Truncated)
      snprintf(Extra, sizeof(Extra), ", %llu truncated",
               (unsigned long long)Result.Truncated);
    uint64_t Centis = (Run.DurationNs + 5000000) / 10000000;
    // The allocation profile, when on, at the end of the same line.
    char Alloc[PATH_MAX + 96] = "";
    if (State.AllocFoldedPath)
      snprintf(Alloc, sizeof(Alloc),
               "; about %llu allocations, %llu bytes, wrote %s",
               (unsigned long long)AllocResult.SampleCount,
               (unsigned long long)AllocResult.Bytes, State.AllocFoldedPath);
    printMessage("%llu samples (%d Hz requested, %llu Hz achieved%s), %llu "
                 "dropped%s, %llu.%02llu s, wrote %s%s",
                 (unsigned long long)Result.SampleCount, Run.RequestedHz,
                 (unsigned long long)(Result.AchievedHz + 0.5),
                 Run.Wall ? ", wall clock" : "",
                 (unsigned long long)Result.Dropped, Extra,
                 (unsigned long long)(Centis / 100),
                 (unsigned long long)(Centis % 100), State.FoldedPath, Alloc);
  }
  FinalWriting.store(false);
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  errno = SavedErrno;
}

/// Runs once from exit(), after the program's own atexit handlers (it was
/// registered before them); never calls exit.
static void writeProfileAtExit() { writeFinalProfile(); }

static void writeOnSampler(int) { writeFinalProfile(); }

/// Removes Final's temporary file, if left. Async-signal-safe.
static void unlinkTemporaryOf(const char *Final, int Pid) {
  char Path[PATH_MAX + 32];
  if (Final && formatTemporaryPath(Path, sizeof(Path), Final, Pid))
    (void)unlink(Path);
}

/// SIGINT/SIGTERM while the program has one thread (the ticker, which
/// must never write, times the samples; no sampler pthread): the
/// interrupted code may be anywhere, inside malloc or stdio too, so the
/// writer runs in a copy of the process (clone without CLONE_VM and
/// without an exit signal: the program sees no SIGCHLD and no child to
/// wait for), and this thread waits for it, bounded. The writer takes no
/// memory from malloc, but a copy that fails or hangs all the same costs
/// the profile, never the program: its temporary files are removed.
/// Async-signal-safe (clone, wait4, kill, unlink, nanosleep).
static void writeInCopy() {
  if (!State.Active || getpid() != State.Pid || FinalWritten.load())
    return;
  stopSampling();
  CopiedCpuNs = processCpuNs();
  long Child = syscall(SYS_clone, 0L, nullptr, nullptr, nullptr, nullptr);
  if (Child == 0) {
    writeFinalProfile(/*InCopy=*/true);
    syscall(SYS_exit_group, 0);
  }
  if (Child < 0)
    return;
  int Status = 0;
  bool Done = false;
  // 30 s: a large profile on a slow disk; a copy stuck in a heap this
  // process left halfway is killed.
  for (int Tries = 0; Tries < 300000; ++Tries) {
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
  if (!Done) {
    syscall(SYS_kill, Child, SIGKILL);
    syscall(SYS_wait4, Child, &Status, __WALL, nullptr);
  }
  if (!Done || !WIFEXITED(Status)) {
    static const char Lost[] =
        "spinelprof: the profile could not be written at the signal\n";
    (void)writeAll(2, Lost, sizeof(Lost) - 1);
    unlinkTemporaryOf(State.FoldedPath, State.Pid);
    unlinkTemporaryOf(State.SprofPath, State.Pid);
    unlinkTemporaryOf(State.AllocFoldedPath, State.Pid);
    unlinkTemporaryOf(State.AllocSprofPath, State.Pid);
  }
  FinalWritten.store(true);
}

/// SIGINT/SIGTERM, installed only over the default disposition: the
/// profile is written (by the sampler thread, or by a copy of a program
/// that has one thread, while this thread waits),
/// then the signal is re-raised with the default action, so the process
/// ends as it would have. Async-signal-safe.
static void handleTerminatingSignal(int Signal) {
  int SavedErrno = errno;
  if (samplerThreadRuns())
    (void)runOnSampler(writeOnSampler, Signal, 5000);
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

static void installTerminatingHandlers() {
  static const int Signals[] = {SIGINT, SIGTERM};
  for (int Signal : Signals) {
    struct sigaction Old;
    if (sigaction(Signal, nullptr, &Old) != 0)
      continue;
    // A handler the program has, or an ignored disposition it inherited
    // (a background job's SIGINT), is left alone.
    if ((Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
      continue;
    struct sigaction Action;
    memset(&Action, 0, sizeof(Action));
    Action.sa_handler = handleTerminatingSignal;
    sigemptyset(&Action.sa_mask);
    Action.sa_flags = SA_RESTART;
    sigaction(Signal, &Action, nullptr);
  }
}

/// Starts the profiler. Runs once, single-threaded, before the program's
/// constructors (priority 101 is the earliest not reserved).
__attribute__((constructor(101))) static void startProfiler() {
  // On every way out: allocation sampling is off unless started below.
  struct SettleAllocations {
    ~SettleAllocations() { settleAllocationSampling(); }
  } Settle;
  int SavedErrno = errno;
  // Off means silent too: not even a bad value of another flag is reported.
  if (const char *Env = getenv("SPINEL_PROFILE"); Env && strcmp(Env, "0") == 0)
    return;
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
  bool SamplerThreadOnly = strcmp(State.Config.Timer, "thread") == 0;
  if (!SamplerThreadOnly && strcmp(State.Config.Timer, "auto") != 0)
    printMessage("SPINEL_PROFILE_TIMER='%s' is not auto or thread; using "
                 "auto",
                 State.Config.Timer);
  if (strcmp(State.Config.Weight, "time") == 0) {
    State.WeightTime = true;
  } else if (strcmp(State.Config.Weight, "samples") != 0) {
    printMessage("SPINEL_PROFILE_WEIGHT='%s' is not samples or time; using "
                 "samples",
                 State.Config.Weight);
  }

  State.Pid = getpid();
  State.StartRealtimeNs = clockNs(CLOCK_REALTIME);
  State.StartMonotonicNs = clockNs(CLOCK_MONOTONIC);
  State.Command = readCommandLine(State.CommandSize);
  State.FoldedPath = resolveOutputPath(Output, State.Pid);
  if (!State.FoldedPath) {
    printMessage("cannot resolve the profile path '%s': %s; profiling is off",
                 Output ? Output : "(default)", strerror(errno));
    errno = SavedErrno;
    return;
  }
  State.SprofPath = sprofPathFor(State.FoldedPath);
  if (Output && strstr(Output, "%p"))
    State.PathTemplate = resolveOutputPath(Output, -1);
  const char *BadPath = State.FoldedPath;
  int Err = State.SprofPath ? checkWritable(State.FoldedPath, State.Pid)
                            : ENOMEM;
  if (!Err) {
    BadPath = State.SprofPath;
    Err = checkWritable(State.SprofPath, State.Pid);
  }
  if (Err) {
    printMessage("cannot write profile '%s': %s; profiling is off", BadPath,
                 strerror(Err));
    errno = SavedErrno;
    return;
  }
  if ((Err = initSampleTable()) != 0) {
    printMessage("cannot reserve memory for samples: %s; profiling is off",
                 strerror(Err));
    errno = SavedErrno;
    return;
  }
  if ((Err = initThreads()) != 0) {
    printMessage("cannot register threads: %s; profiling is off",
                 strerror(Err));
    errno = SavedErrno;
    return;
  }
  // Before any sample: the handler looks program counters up in it.
  (void)initNativeFrames();
  if (State.Config.Alloc) {
    State.AllocFoldedPath = allocPathFor(State.FoldedPath);
    State.AllocSprofPath =
        State.AllocFoldedPath ? sprofPathFor(State.AllocFoldedPath) : nullptr;
    Err = State.AllocSprofPath
              ? startAllocationSampling(
                    static_cast<uint64_t>(State.Config.AllocRate))
              : ENOMEM;
    if (Err) {
      printMessage("cannot sample allocations: %s; allocation profiling is "
                   "off",
                   strerror(Err));
      State.AllocFoldedPath = State.AllocSprofPath = nullptr;
    }
  }
  State.Active = true;
  atexit(writeProfileAtExit);
  pthread_atfork(nullptr, nullptr, atForkChild);
  SamplerConfig Sampler = {State.Config.Hz, State.Wall, State.Config.FlushSec,
                           flushProfile, SamplerThreadOnly};
  if ((Err = startSampling(Sampler)) != 0) {
    State.Active = false;
    stopAllocationSampling();
    printMessage("cannot start the profiling timer: %s; profiling is off",
                 strerror(Err));
  } else {
    installTerminatingHandlers();
  }
  errno = SavedErrno;
}

} // namespace spinelprof
