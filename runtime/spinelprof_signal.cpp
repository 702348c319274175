//===- spinelprof_signal.cpp - The sampler thread and the handler ---------===//
//
// Part of spinelprof. See spinelprof_signal.h.
//
// Why not setitimer(ITIMER_PROF) or timer_create on a CPU clock: on this
// kernel CPU-clock timers fire only on scheduler ticks (about 250 signals
// per CPU-second whatever is asked), and a process-wide timer signals
// whichever thread happens to run. A CLOCK_MONOTONIC sleep wakes on time at
// 10 kHz, and reading another thread's CPU clock is one syscall.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_signal.h"

#include "spinelprof_interpose.h"
#include "spinelprof_native.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_threads.h"

#include <atomic>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

namespace spinelprof {

/// Whether native leaves apply: only when the plugin instrumented code in
/// this executable. With frames pushed by hand (runtime tests, other
/// tools) every function would look native.
static bool UseNativeFrames;

#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))
static SPINELPROF_TLS int InHandler;

static SamplerConfig Config;
static uint64_t PeriodNs;
static std::atomic<bool> Enabled;
static std::atomic<bool> StopRequested;
static std::atomic<int> InFlight; // Handlers and ticks recording now.
static std::atomic<bool> RealTime; // The sampler runs SCHED_FIFO.
static int Pid;

// Work handed to the sampler thread (runOnSampler).
static std::atomic<void (*)(int)> PendingWork;
static std::atomic<int> PendingArg;
static std::atomic<uint32_t> WorkDone;

static uint64_t clockNs(clockid_t Clock) {
  struct timespec T;
  if (clock_gettime(Clock, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t threadCpuNs() { return clockNs(CLOCK_THREAD_CPUTIME_ID); }
uint64_t processCpuNs() { return clockNs(CLOCK_PROCESS_CPUTIME_ID); }
uint64_t monotonicNs() { return clockNs(CLOCK_MONOTONIC); }

bool samplerIsRealTime() { return RealTime.load(); }

const char *timerName(bool Wall) {
  return Wall ? "sampler thread, CLOCK_MONOTONIC"
              : "sampler thread, CLOCK_MONOTONIC, thread CPU clocks";
}

/// Names a thread in the table the first time it is sampled, from its own
/// handler. Async-signal-safe (prctl is a plain syscall).
static void nameOwnThread(ThreadSlot &T) {
  if (T.Named.exchange(1, std::memory_order_relaxed))
    return;
  char Name[16] = "main";
  if (T.Tid != static_cast<uint32_t>(Pid))
    (void)prctl(PR_GET_NAME, Name, 0, 0, 0);
  Name[15] = '\0';
  registerThread(T.Tid, Name);
}

static const FrameDescriptor *const UnknownRoot[1] = {&UnknownFrame};

static constexpr uint64_t DeferredNs = 20000;
static constexpr uint32_t MaxDeferrals = 8;

/// Whether Pc follows a syscall instruction. Reads the two bytes before
/// it, in the same page as Pc (so mapped). Async-signal-safe.
static bool afterSyscall(uintptr_t Pc) {
#if defined(__x86_64__)
  if ((Pc & 4095) < 2)
    return false;
  const unsigned char *P = reinterpret_cast<const unsigned char *>(Pc - 2);
  return P[0] == 0x0f && P[1] == 0x05;
#else
  (void)Pc;
  return false;
#endif
}

/// The interrupted program counter, or 0. Async-signal-safe.
static uintptr_t programCounter(void *Context) {
  if (!Context)
    return 0;
#if defined(__x86_64__)
  return static_cast<uintptr_t>(
      static_cast<ucontext_t *>(Context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(
      static_cast<ucontext_t *>(Context)->uc_mcontext.pc);
#else
  return 0;
#endif
}



/// Records the interrupted thread's shadow stack, with the weight the
/// sampler left for it. Async-signal-safe: only the lock-free table, plain
/// syscalls and reads of this thread's own memory; no malloc, locks or
/// stdio. Not re-entrant (the caller's guard sees to that).
static void takeSample(void *Context) {
  ThreadSlot *T = currentThreadSlot();
  if (!T)
    return;
  uint32_t Count = T->PendingCount.exchange(0, std::memory_order_acq_rel);
  uint64_t Weight = T->PendingWeightNs.exchange(0, std::memory_order_acq_rel);
  if (Count == 0)
    return; // Not the sampler's signal (or already counted).
  uintptr_t Pc = programCounter(Context);
  // A signal reaches a thread running user code only when an IPI arrives
  // (20-250 us in this VM), or at the thread's next syscall if that comes
  // first: then it lands right after the syscall instruction, long after
  // it was sent, and the time before it would be charged to the code
  // around the syscall. Such a sample is put back and sent again at the
  // next tick (at most 8 times in a row). A signal that arrived during a
  // syscall that was using CPU lands there too, but within microseconds.
  if (Pc && T->Deferred < MaxDeferrals && afterSyscall(Pc) &&
      monotonicNs() - T->SentAtNs.load(std::memory_order_acquire) >
          DeferredNs) {
    ++T->Deferred;
    T->PendingWeightNs.fetch_add(Weight, std::memory_order_acq_rel);
    T->PendingCount.fetch_add(Count, std::memory_order_acq_rel);
    T->Resend.store(1, std::memory_order_release);
    return;
  }
  T->Deferred = 0;
  nameOwnThread(*T);
  // The interrupted code is suspended, so the stack cannot change under
  // us; the fence pairs with the push's release store of depth (abi.h).
  intptr_t Offset = __atomic_load_n(&__spinelprof_stack_offset,
                                    __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_acquire);
  StackView S;
  viewStack(&__spinelprof_stack, Offset, S);
  if (S.Leaf == &TruncatedFrame) {
    noteTruncated();
  } else if (UseNativeFrames) {
    if (const FrameDescriptor *Native = Pc ? nativeFrameAt(Pc) : nullptr) {
      // Outside any frame: "[unknown]" stays the root, under the native leaf.
      if (S.Leaf == &UnknownFrame)
        S.add(UnknownRoot, 1);
      S.Leaf = Native;
    }
  }
  recordSample(T->Tid, S, Weight, Count);
}

/// The SIGPROF handler. Async-signal-safe; runs on any registered thread,
/// on several at once; keeps errno.
static void handleProfilingSignal(int, siginfo_t *, void *Context) {
  int SavedErrno = errno;
  if (!InHandler) {
    InHandler = 1;
    InFlight.fetch_add(1);
    if (Enabled.load())
      takeSample(Context);
    InFlight.fetch_sub(1);
    InHandler = 0;
  }
  errno = SavedErrno;
}

//===----------------------------------------------------------------------===//
// The sampler thread
//===----------------------------------------------------------------------===//

// A copy of a blocked thread's stack (fiber chain included), so it can be
// validated before it is recorded. Only the sampler thread uses it.
static constexpr uint32_t CopyCapacity =
    (SPINELPROF_STACK_CAPACITY + 2) * ((StackView::MaxSegments + 1) / 2);
static const FrameDescriptor *CopyBuffer[CopyCapacity];

/// Reads /proc/self/task/<tid>/comm for a thread sampled from outside.
/// Sampler thread only.
static void nameOtherThread(ThreadSlot &T) {
  if (T.Named.exchange(1, std::memory_order_relaxed))
    return;
  char Name[16] = "main";
  if (T.Tid != static_cast<uint32_t>(Pid)) {
    char Path[64];
    snprintf(Path, sizeof(Path), "/proc/self/task/%u/comm", T.Tid);
    long FD = syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY | O_CLOEXEC);
    if (FD >= 0) {
      long N = syscall(SYS_read, FD, Name, sizeof(Name) - 1);
      syscall(SYS_close, FD);
      if (N < 0)
        N = 0;
      Name[N] = '\0';
      if (N && Name[N - 1] == '\n')
        Name[N - 1] = '\0';
    }
  }
  registerThread(T.Tid, Name);
}

/// Records the stack of a thread that is inside a blocking call, read from
/// outside. Returns false if the thread left the call meanwhile (the copy
/// is then not used). Sampler thread only; T is Busy and Active.
static bool sampleBlockedThread(ThreadSlot &T, uint32_t Seq, uint64_t Weight,
                                uint32_t Count) {
  intptr_t Offset = __atomic_load_n(T.OffsetVar, __ATOMIC_ACQUIRE);
  StackView Live;
  viewStack(T.OwnStack, Offset, Live);
  uint32_t N = 0;
  for (uint32_t G = 0; G < Live.SegmentCount; ++G)
    for (uint32_t I = 0; I < Live.Segments[G].Count && N < CopyCapacity; ++I)
      CopyBuffer[N++] = __atomic_load_n(&Live.Segments[G].Frames[I],
                                        __ATOMIC_RELAXED);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (T.BlockSeq.load(std::memory_order_seq_cst) != Seq)
    return false;
  nameOtherThread(T);
  StackView Copy(CopyBuffer, N, Live.Leaf);
  if (Copy.Leaf == &TruncatedFrame)
    noteTruncated();
  recordSample(T.Tid, Copy, Weight, Count);
  return true;
}

/// Marks T busy and returns whether it is an active thread; false releases
/// it again. While held, a leaving thread waits (unregisterCurrentThread),
/// so the slot cannot be freed and claimed by a new thread under the
/// sampler (TSan found the credit loop reading a slot being reused).
/// Sampler thread only; release with releaseSlot.
static bool holdSlot(ThreadSlot &T) {
  T.Busy.store(1, std::memory_order_seq_cst);
  if (T.State.load(std::memory_order_seq_cst) == ThreadSlot::Active)
    return true;
  T.Busy.store(0, std::memory_order_seq_cst);
  return false;
}

static void releaseSlot(ThreadSlot &T) { T.Busy.store(0, std::memory_order_seq_cst); }

/// Samples thread T now, standing for Weight: from outside if it is in a
/// blocking call (a signal could cut a sleep or poll short), else by
/// signal. Sampler thread only, holding T (holdSlot).
static void sampleThread(ThreadSlot &T, uint64_t Weight, uint32_t Count) {
  {
    uint32_t Seq = T.BlockSeq.load(std::memory_order_seq_cst);
    if (Seq & 1) {
      (void)sampleBlockedThread(T, Seq, Weight, Count);
    } else {
      if (T.PendingCount.load(std::memory_order_acquire) == 0)
        T.SentAtNs.store(monotonicNs(), std::memory_order_release);
      T.PendingWeightNs.fetch_add(Weight, std::memory_order_acq_rel);
      // Count last: the handler takes the count first, so a weight never
      // arrives without its sample.
      T.PendingCount.fetch_add(Count, std::memory_order_acq_rel);
      syscall(SYS_tgkill, Pid, T.Tid, SIGPROF);
    }
  }
}

/// Sends again the samples a handler put back; if the thread is now in a
/// blocking call, takes them from outside. Sampler thread only, holding T.
static void resendThread(ThreadSlot &T) {
  {
    uint32_t Seq = T.BlockSeq.load(std::memory_order_seq_cst);
    if (Seq & 1) {
      uint32_t Count = T.PendingCount.exchange(0, std::memory_order_acq_rel);
      uint64_t Weight =
          T.PendingWeightNs.exchange(0, std::memory_order_acq_rel);
      if (Count && !sampleBlockedThread(T, Seq, Weight, Count)) {
        T.PendingWeightNs.fetch_add(Weight, std::memory_order_acq_rel);
        T.PendingCount.fetch_add(Count, std::memory_order_acq_rel);
        T.Resend.store(1, std::memory_order_release);
      }
    } else {
      T.SentAtNs.store(monotonicNs(), std::memory_order_release);
      syscall(SYS_tgkill, Pid, T.Tid, SIGPROF);
    }
  }
}

static constexpr uint64_t MaxOwed = 64;

/// Reads T's CPU clock and chooses how many samples it gets at the next
/// tick. Sampler thread only, holding T.
static void chooseSamples(ThreadSlot &T) {
  struct timespec Ts;
  if (clock_gettime(T.CpuClock, &Ts) != 0)
    return; // The thread has just ended.
  uint64_t Cpu = uint64_t(Ts.tv_sec) * 1000000000u + uint64_t(Ts.tv_nsec);
  if (Cpu < T.LastCpuNs)
    return;
  T.CreditNs += int64_t(Cpu - T.LastCpuNs);
  T.LastCpuNs = Cpu;
  // A sample per period of CPU: credit carries the remainder, so a
  // thread using a third of a core is sampled every third tick. When the
  // sampler itself was kept off the CPU for several periods, the thread
  // gets the samples it is owed at once (bounded), all of its current
  // stack, rather than fewer samples than its CPU time says.
  if (T.CreditNs < int64_t(PeriodNs / 2))
    return;
  uint64_t Owed = (uint64_t(T.CreditNs) + PeriodNs / 2) / PeriodNs;
  T.CreditNs -= int64_t(Owed * PeriodNs);
  if (Owed > MaxOwed) {
    Owed = MaxOwed;
    if (T.CreditNs > int64_t(PeriodNs))
      T.CreditNs = int64_t(PeriodNs);
  }
  T.ChosenCount += uint32_t(Owed);
  T.ChosenWeightNs += Cpu - T.LastSampleNs;
  T.LastSampleNs = Cpu;
}

/// One tick. In cpu mode it first samples the threads chosen at the
/// previous tick, then reads every thread's CPU clock to choose the next
/// ones. The order matters: reading a running thread's CPU clock can wait
/// on the scheduler lock that thread's own clock syscalls take, so a signal
/// sent right after the read would land in such syscalls far more often
/// than their share of the time. Sent straight after the timed wakeup,
/// signals are independent of what the threads do.
static void tick(uint64_t NowNs) {
  uint32_t Limit = threadSlotLimit();
  for (uint32_t I = 0; I < Limit; ++I) {
    ThreadSlot &T = threadSlot(I);
    if (!holdSlot(T))
      continue;
    if (Config.Wall) {
      uint64_t Weight = T.LastSampleNs ? NowNs - T.LastSampleNs : PeriodNs;
      T.LastSampleNs = NowNs;
      sampleThread(T, Weight, 1);
    } else if (T.ChosenCount) {
      sampleThread(T, T.ChosenWeightNs, T.ChosenCount);
      T.ChosenWeightNs = 0;
      T.ChosenCount = 0;
    } else if (T.Resend.exchange(0, std::memory_order_acq_rel)) {
      resendThread(T);
    }
    releaseSlot(T);
  }
  if (Config.Wall)
    return;
  for (uint32_t I = 0; I < Limit; ++I) {
    ThreadSlot &T = threadSlot(I);
    if (!holdSlot(T))
      continue;
    chooseSamples(T);
    releaseSlot(T);
  }
}

static void sleepUntil(uint64_t Ns) {
  struct timespec T = {time_t(Ns / 1000000000u), long(Ns % 1000000000u)};
  // The raw syscall: the interposed clock_nanosleep would push a frame.
  while (syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &T,
                 nullptr) != 0 &&
         errno == EINTR) {
  }
}

static void *samplerMain(void *) {
  (void)prctl(PR_SET_NAME, "spinelprof", 0, 0, 0);
  // Real-time priority when allowed: a waking SCHED_OTHER thread may wait
  // for the running thread's next syscall or tick before it runs (lazy
  // preemption), and the signal then lands right after that syscall; on
  // this kernel that put 5-10x too many samples on code next to frequent
  // syscalls. A SCHED_FIFO sampler runs at its time. Each tick is a few
  // microseconds, so it takes little from the program either way.
  struct sched_param Priority;
  memset(&Priority, 0, sizeof(Priority));
  Priority.sched_priority = 1;
  RealTime.store(pthread_setschedparam(pthread_self(), SCHED_FIFO,
                                       &Priority) == 0);
  uint64_t Next = monotonicNs() + PeriodNs;
  uint64_t FlushNs = uint64_t(Config.FlushSec) * 1000000000u;
  uint64_t NextFlush = FlushNs ? monotonicNs() + FlushNs : 0;
  // Wake at least every 10 ms, for runOnSampler and the stop request.
  uint64_t MaxSleep = 10000000u;
  uint64_t Jitter = monotonicNs();
  while (!StopRequested.load()) {
    uint64_t Wake = Next;
    uint64_t Now = monotonicNs();
    if (Wake > Now + MaxSleep)
      Wake = Now + MaxSleep;
    sleepUntil(Wake);
    if (StopRequested.load())
      break;
    if (void (*Work)(int) = PendingWork.exchange(nullptr)) {
      Work(PendingArg.load());
      WorkDone.fetch_add(1);
    }
    Now = monotonicNs();
    if (Now >= Next) {
      InFlight.fetch_add(1);
      if (Enabled.load())
        tick(Now);
      InFlight.fetch_sub(1);
      Next += PeriodNs;
      if (Next <= Now) // Late by a period or more: skip the missed ticks.
        Next += (Now - Next) / PeriodNs * PeriodNs + PeriodNs;
      // The clock reads at the end of the tick can wait on a thread's own
      // clock syscalls (the scheduler lock): signals must never follow
      // them straight away, or they would land in those syscalls. A late
      // sampler waits a random quarter to half period first.
      uint64_t After = monotonicNs();
      Jitter = Jitter * 6364136223846793005u + 1442695040888963407u;
      uint64_t Gap = PeriodNs / 4 + (Jitter >> 33) % (PeriodNs / 4 + 1);
      if (Next < After + Gap)
        Next = After + Gap;
    }
    if (NextFlush && Now >= NextFlush && Config.Flush) {
      Config.Flush();
      NextFlush += FlushNs;
      if (NextFlush <= Now)
        NextFlush = Now + FlushNs;
    }
  }
  return nullptr;
}

static int startSamplerThread() {
  // The sampler gets no signals at all: the program's and SIGPROF go to
  // the program's threads.
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&Attr, 256 * 1024);
  pthread_t Thread;
  int Err = realPthreadCreate(&Thread, &Attr, samplerMain, nullptr);
  pthread_attr_destroy(&Attr);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  return Err;
}

int startSampling(const SamplerConfig &C) {
  Config = C;
  PeriodNs = 1000000000u / uint64_t(C.Hz > 0 ? C.Hz : 1);
  Pid = getpid();
  UseNativeFrames = reinterpret_cast<uintptr_t>(__start_spinelprof_frames) !=
                    reinterpret_cast<uintptr_t>(__stop_spinelprof_frames);
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = handleProfilingSignal;
  // SA_RESTART: a profiling signal must not make the program's read/write
  // fail with EINTR (calls outside the wrappers, e.g. inside libc).
  Action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Action.sa_mask);
  // The SIGINT/SIGTERM handler waits for the writer, which waits for
  // handlers in flight: it must not run on top of this one.
  sigaddset(&Action.sa_mask, SIGINT);
  sigaddset(&Action.sa_mask, SIGTERM);
  if (sigaction(SIGPROF, &Action, nullptr) != 0)
    return errno;
  Enabled.store(true);
  if (int Err = startSamplerThread()) {
    Enabled.store(false);
    return Err;
  }
  return 0;
}

void stopSampling() {
  StopRequested.store(true);
  Enabled.store(false);
  // A handler or tick that saw Enabled before the store finishes within
  // microseconds; give up after a second rather than hang an exiting
  // program.
  for (int Spin = 0; InFlight.load() != 0 && Spin < 10000; ++Spin) {
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
}

bool runOnSampler(void (*Work)(int), int Arg, int TimeoutMs) {
  if (StopRequested.load())
    return false;
  uint32_t Before = WorkDone.load();
  PendingArg.store(Arg);
  PendingWork.store(Work);
  for (int Ms = 0; Ms < TimeoutMs * 10; ++Ms) {
    if (WorkDone.load() != Before)
      return true;
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
  return false;
}

void restartSamplingAfterFork() {
  Pid = getpid();
  InFlight.store(0);
  PendingWork.store(nullptr);
  resetSampleTable();
  resetThreadsAfterFork();
  if (Enabled.load() && !StopRequested.load())
    (void)startSamplerThread();
}

} // namespace spinelprof
