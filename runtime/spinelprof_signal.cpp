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
#include "spinelprof_io.h"
#include "spinelprof_native.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_threads.h"

#include <atomic>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
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

/// What times the samples. While the program has one thread (cpu mode, no
/// periodic flush), a CLOCK_MONOTONIC timer of that thread's own signals it
/// directly: no helper thread, so glibc's malloc keeps its single-thread
/// fast path (one idle thread made Spinel's allocating benchmarks up to
/// x1.6 slower, docs/performance.md), and the signal is raised on the
/// thread's own CPU, without a cross-CPU interrupt. The program's second
/// thread hands sampling to the sampler thread for good.
enum Timing : int { NoTiming = 0, OwnTimer = 1, SamplerThread = 2 };
static std::atomic<int> TimedBy;
static int OwnTimerId = -1; // The kernel's timer id.

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

const char *samplerName() {
  if (TimedBy.load() != SamplerThread)
    return "none";
  return RealTime.load() ? "realtime" : "normal";
}

const char *timerName(bool Wall) {
  if (TimedBy.load() == OwnTimer)
    return "thread's own timer, CLOCK_MONOTONIC, thread CPU clock";
  return Wall ? "sampler thread, CLOCK_MONOTONIC"
              : "sampler thread, CLOCK_MONOTONIC, thread CPU clocks";
}

bool samplerThreadRuns() { return TimedBy.load() == SamplerThread; }

static const FrameDescriptor *const UnknownRoot[1] = {&UnknownFrame};

/// A signal later than this that lands right after a syscall instruction
/// was most likely delivered by that syscall, not when it was sent.
static constexpr uint64_t LateNs = 20000;
/// Samples a handler gives back in a row, at most, before it keeps one.
static constexpr uint32_t MaxReturns = 8;

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



/// Records stack S for thread Tid with the native function at Pc (0: none)
/// as its leaf. Async-signal-safe.
static void recordWithLeaf(uint32_t Tid, StackView &S, uintptr_t Pc,
                           uint64_t WeightNs, uint32_t Count) {
  if (S.Leaf == &TruncatedFrame) {
    noteTruncated();
  } else if (UseNativeFrames && Pc) {
    if (const FrameDescriptor *Native = nativeFrameAt(Pc)) {
      // Outside any frame: "[unknown]" stays the root, under the native leaf.
      if (S.Leaf == &UnknownFrame)
        S.add(UnknownRoot, 1);
      S.Leaf = Native;
    }
  }
  recordSample(Tid, S, WeightNs, Count);
}

/// Records the sample in flight for the interrupted thread: the stack the
/// sampler copied when the sample was due, plus the native function the
/// thread is in now as its leaf, when that leaf belongs on the copy. The
/// signal comes later than the copy (an IPI away, 20-250 us in this VM, or
/// at the thread's next syscall), so the PC is used only if the thread's
/// top frame is still the copy's (the native function is then called by
/// that frame: a possible pair) and the signal was not delivered late by a
/// syscall (then the PC says where the syscall was, not where the thread
/// was when the sample was due: the sample stays on the instrumented
/// frame). Async-signal-safe: reads of this thread's memory, the lock-free
/// table, vDSO clock and prctl; no malloc, locks or stdio. Not re-entrant
/// (the caller's guard sees to that).
static void takeSample(void *Context) {
  ThreadSlot *T = currentThreadSlot();
  if (!T)
    return;
  uint32_t Ready = ThreadSlot::SnapReady;
  if (!T->SnapState.compare_exchange_strong(Ready, ThreadSlot::SnapTaken,
                                            std::memory_order_acq_rel))
    return; // Not the sampler's signal, or its sample was taken already.
  nameThread(*T, true);
  uintptr_t Pc = programCounter(Context);
  // The interrupted code is suspended, so its stack cannot change under
  // us; the fence pairs with the push's release store of depth (abi.h).
  intptr_t Offset = __atomic_load_n(&__spinelprof_stack_offset,
                                    __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_acquire);
  StackView S;
  bool LeafFits;
  bool Late = afterSyscall(Pc) && monotonicNs() - T->SnapSentNs > LateNs;
  if (T->SnapLive) {
    // No exact copy: the thread kept pushing and popping while it was
    // read. Its own stack, now, is true; but if a syscall delivered the
    // signal late, it is the syscall's (code next to syscalls would be
    // over-represented): the sampler takes the sample again later.
    if (Late && T->Returns < MaxReturns) {
      ++T->Returns;
      T->SnapState.store(ThreadSlot::SnapReturned, std::memory_order_release);
      return;
    }
    viewStack(&__spinelprof_stack, Offset, S);
    LeafFits = !Late;
  } else {
    // Copied while the scheduler had the thread stopped, and it resumes
    // right after a syscall: it was stopped at that syscall's exit (where
    // preemption is acted on, and where a sampler sharing its CPU gets to
    // run in this VM), and this stack would over-represent the code
    // around syscalls. The sampler takes the sample again later.
    if (T->SnapStopped && afterSyscall(Pc) && T->Returns < MaxReturns) {
      ++T->Returns;
      T->SnapState.store(ThreadSlot::SnapReturned, std::memory_order_release);
      return;
    }
    S = StackView(T->SnapFrames, T->SnapLength, T->SnapLeaf);
    LeafFits = !Late && stackTop(&__spinelprof_stack, Offset) == T->SnapTop;
  }
  T->Returns = 0;
  recordWithLeaf(T->Tid, S, LeafFits ? Pc : 0, T->SnapWeightNs,
                 T->SnapCount);
  T->SnapState.store(ThreadSlot::SnapEmpty, std::memory_order_release);
}

/// How many samples a thread is owed now that its CPU clock reads Cpu: one
/// per period of CPU used since its last sample, the remainder carried (a
/// thread using a third of a core is sampled every third period), and
/// their weight. When the samples were held up for several periods, the
/// thread gets what it is owed at once (bounded) rather than fewer samples
/// than its CPU time says. Returns the count (0: none yet). Whoever times
/// the thread's samples: the sampler thread, or the thread's own handler.
/// Async-signal-safe.
static constexpr uint64_t MaxOwed = 64;

static uint32_t owedSamples(ThreadSlot &T, uint64_t Cpu, uint64_t &Weight) {
  T.CreditNs += int64_t(Cpu - T.LastCpuNs);
  T.LastCpuNs = Cpu;
  if (T.CreditNs < int64_t(PeriodNs / 2))
    return 0;
  uint64_t Owed = (uint64_t(T.CreditNs) + PeriodNs / 2) / PeriodNs;
  T.CreditNs -= int64_t(Owed * PeriodNs);
  if (Owed > MaxOwed) {
    Owed = MaxOwed;
    if (T.CreditNs > int64_t(PeriodNs))
      T.CreditNs = int64_t(PeriodNs);
  }
  Weight = Cpu - T.LastSampleNs;
  T.LastSampleNs = Cpu;
  return uint32_t(Owed);
}

/// A sample timed by the thread's own timer: its own stack, read in place
/// (exact: the interrupted code cannot change it), the interrupted PC as
/// its native leaf, weighted by the CPU the thread used since its last
/// sample. A signal that waited for a blocking call to return (the
/// wrappers block SIGPROF) stands for the CPU used before the call, so it
/// gets no leaf: the PC says where that call returned. Async-signal-safe:
/// a clock syscall, reads of this thread's memory and the lock-free table.
static void sampleOwnStack(void *Context) {
  ThreadSlot *T = currentThreadSlot();
  if (!T)
    return;
  uint64_t Cpu = threadCpuNs();
  if (Cpu == 0 || Cpu < T->LastCpuNs)
    return;
  uint64_t Weight = 0;
  uint32_t Count = owedSamples(*T, Cpu, Weight);
  if (!Count)
    return; // Off the CPU for most of the period: its credit carries.
  nameThread(*T, true);
  uintptr_t Pc = programCounter(Context);
  intptr_t Offset = __atomic_load_n(&__spinelprof_stack_offset,
                                    __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_acquire);
  StackView S;
  viewStack(&__spinelprof_stack, Offset, S);
  recordWithLeaf(T->Tid, S, afterSyscall(Pc) ? 0 : Pc, Weight, Count);
}

/// The SIGPROF handler. Async-signal-safe; runs on any registered thread,
/// on several at once; keeps errno.
static void handleProfilingSignal(int, siginfo_t *, void *Context) {
  int SavedErrno = errno;
  if (!InHandler) {
    InHandler = 1;
    InFlight.fetch_add(1);
    if (Enabled.load()) {
      ThreadSlot *T = currentThreadSlot();
      // A sample the sampler thread prepared (also the benchmark's), else
      // the thread's own timer.
      if (T && T->SnapState.load(std::memory_order_acquire) ==
                   ThreadSlot::SnapReady)
        takeSample(Context);
      else if (TimedBy.load() == OwnTimer)
        sampleOwnStack(Context);
    }
    InFlight.fetch_sub(1);
    InHandler = 0;
  }
  errno = SavedErrno;
}

//===----------------------------------------------------------------------===//
// The sampler thread
//===----------------------------------------------------------------------===//

// The sampler's copy of a stack it records itself. Sampler thread only.
static const FrameDescriptor *CopyBuffer[StackCopyCapacity];

static uint64_t cpuClockNs(const ThreadSlot &T) {
  struct timespec Ts;
  if (clock_gettime(T.CpuClock, &Ts) != 0)
    return 0; // The thread has just ended.
  return uint64_t(Ts.tv_sec) * 1000000000u + uint64_t(Ts.tv_nsec);
}

/// Prepares T's sample: its stack copied now, for the handler to add the
/// native leaf and record it. In cpu mode (CpuBefore: T's CPU clock read
/// just before the copy) a copy taken while T's CPU clock moved shows T
/// running; one taken while it stood still may show where T was stopped,
/// which the handler checks. (On this kernel another thread's CPU clock
/// moves only at scheduler ticks, context switches and the thread's own
/// clock reads, so nearly every copy counts as stopped.) A running copy
/// without native frames needs no handler: it is recorded here. Returns
/// whether T must be signalled.
/// Normal context (the sampler thread, or T itself for the benchmark);
/// T is Busy and Active and not in a blocking call.
static bool prepareSample(ThreadSlot &T, uint64_t Weight, uint32_t Count,
                          uint64_t CpuBefore) {
  // The previous sample's signal has not arrived (the thread has been off
  // the CPU, or has SIGPROF blocked): record its copy as it is.
  if (T.SnapState.load(std::memory_order_acquire) == ThreadSlot::SnapReady) {
    nameThread(T, false);
    recordSnapshotWithoutLeaf(T, Fallback::Recopy);
  }
  uint32_t Empty = ThreadSlot::SnapEmpty;
  if (!T.SnapState.compare_exchange_strong(Empty, ThreadSlot::SnapTaken,
                                           std::memory_order_acq_rel))
    return false; // Its handler is recording the previous one: lost.
  if (!T.SnapFrames) {
    void *P = mmap(nullptr, StackCopyCapacity * sizeof(*T.SnapFrames),
                   PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED) {
      T.SnapState.store(ThreadSlot::SnapEmpty, std::memory_order_release);
      return false; // Lost.
    }
    T.SnapFrames = static_cast<const FrameDescriptor **>(P);
  }
  StackCopy C;
  T.SnapLive = !copyStack(T, T.SnapFrames, C);
  T.SnapStopped = CpuBefore && cpuClockNs(T) == CpuBefore;
  T.SnapLength = C.Length;
  T.SnapLeaf = C.Leaf;
  T.SnapTop = C.Top;
  T.SnapCount = Count;
  T.SnapWeightNs = Weight;
  T.SnapSentNs = monotonicNs();
  T.SnapState.store(ThreadSlot::SnapReady, std::memory_order_release);
  if (!UseNativeFrames && !T.SnapLive && !T.SnapStopped) {
    nameThread(T, false);
    recordSnapshotWithoutLeaf(T, Fallback::Unknown);
    return false;
  }
  return true;
}

/// Records the stack of a thread that is inside a blocking call, read from
/// outside. Returns false if the thread left the call meanwhile (the copy
/// is then not used). Sampler thread only; T is Busy and Active.
static bool sampleBlockedThread(ThreadSlot &T, uint32_t Seq, uint64_t Weight,
                                uint32_t Count) {
  StackCopy C;
  if (!copyStack(T, CopyBuffer, C))
    return false;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (T.BlockSeq.load(std::memory_order_seq_cst) != Seq)
    return false;
  nameThread(T, false);
  StackView S(CopyBuffer, C.Length, C.Leaf);
  if (S.Leaf == &TruncatedFrame)
    noteTruncated();
  recordSample(T.Tid, S, Weight, Count);
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
/// blocking call (a signal could cut a sleep or poll short), else as
/// prepareSample and a signal. Sampler thread only, holding T (holdSlot).
static void sampleThread(ThreadSlot &T, uint64_t Weight, uint32_t Count,
                         uint64_t CpuBefore) {
  uint32_t Seq = T.BlockSeq.load(std::memory_order_seq_cst);
  if ((!(Seq & 1) || !sampleBlockedThread(T, Seq, Weight, Count)) &&
      prepareSample(T, Weight, Count, CpuBefore))
    syscall(SYS_tgkill, Pid, T.Tid, SIGPROF);
}

/// The tick's work for one thread. Wall mode samples every thread,
/// weighted by wall time; cpu mode reads each thread's CPU clock and
/// samples the threads owed a sample (owedSamples). Sampler thread only,
/// holding T.
static void tickThread(ThreadSlot &T, uint64_t NowNs) {
  if (Config.Wall) {
    uint64_t Weight = T.LastSampleNs ? NowNs - T.LastSampleNs : PeriodNs;
    T.LastSampleNs = NowNs;
    sampleThread(T, Weight, 1, 0);
    return;
  }
  uint64_t Cpu = cpuClockNs(T);
  if (Cpu == 0 || Cpu < T.LastCpuNs)
    return;
  uint64_t Count = 0, Weight = 0;
  // A sample its handler gave back is owed again.
  uint32_t Returned = ThreadSlot::SnapReturned;
  if (T.SnapState.compare_exchange_strong(Returned, ThreadSlot::SnapTaken,
                                          std::memory_order_acq_rel)) {
    Count = T.SnapCount;
    Weight = T.SnapWeightNs;
    T.SnapState.store(ThreadSlot::SnapEmpty, std::memory_order_release);
  }
  uint64_t OwedWeight = 0;
  Count += owedSamples(T, Cpu, OwedWeight);
  Weight += OwedWeight;
  if (Count)
    sampleThread(T, Weight, uint32_t(Count), Cpu);
}

static void tick(uint64_t NowNs) {
  uint32_t Limit = threadSlotLimit();
  for (uint32_t I = 0; I < Limit; ++I) {
    ThreadSlot &T = threadSlot(I);
    if (!holdSlot(T))
      continue;
    tickThread(T, NowNs);
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

/// Starts this thread's own timer: SIGPROF to this thread every period of
/// CLOCK_MONOTONIC time (the handler weighs each by the CPU the thread
/// used). Raw syscalls: the kernel's timer id, no glibc state. Returns 0 or
/// an errno. Normal context.
static int startOwnTimer() {
  struct sigevent Event;
  memset(&Event, 0, sizeof(Event));
  Event.sigev_notify = SIGEV_THREAD_ID;
  Event.sigev_signo = SIGPROF;
  Event._sigev_un._tid = static_cast<int>(gettid());
  int Id = -1;
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &Event, &Id) != 0)
    return errno;
  struct timespec Period = {time_t(PeriodNs / 1000000000u),
                            long(PeriodNs % 1000000000u)};
  struct itimerspec Spec = {Period, Period};
  if (syscall(SYS_timer_settime, Id, 0, &Spec, nullptr) != 0) {
    int Err = errno;
    syscall(SYS_timer_delete, Id);
    return Err;
  }
  OwnTimerId = Id;
  return 0;
}

/// Deletes the own timer. A signal it raised already may still arrive; the
/// handler then finds nothing to do. Async-signal-safe.
static void stopOwnTimer() {
  if (OwnTimerId >= 0)
    syscall(SYS_timer_delete, OwnTimerId);
  OwnTimerId = -1;
}

void beforeSecondThread() {
  if (TimedBy.load() != OwnTimer)
    return;
  // Not while this thread's own handler samples (the only other user of
  // the timer's state): SIGPROF blocked for the switch.
  sigset_t Block, Saved;
  sigemptyset(&Block);
  sigaddset(&Block, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &Block, &Saved);
  int Expected = OwnTimer;
  if (TimedBy.compare_exchange_strong(Expected, SamplerThread)) {
    stopOwnTimer();
    if (!StopRequested.load())
      if (int Err = startSamplerThread())
        printMessage("cannot start the sampler thread: %s; sampling stops",
                     strerror(Err));
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
}

/// Starts what times the samples: the thread's own timer when it may
/// (cpu mode, no periodic flush, which needs a thread to write, not
/// SPINEL_PROFILE_TIMER=thread), else, or if the timer cannot be made, the
/// sampler thread. Normal context.
/// Under ThreadSanitizer a process always has a second thread (TSan's
/// own), and a copy of it for SIGINT (writeInCopy) could find TSan's locks
/// held by that thread: the sampler thread, always.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SPINELPROF_OWN_TIMER 0
#endif
#endif
#ifndef SPINELPROF_OWN_TIMER
#define SPINELPROF_OWN_TIMER 1
#endif

static int startTiming() {
  if (SPINELPROF_OWN_TIMER && !Config.Wall && Config.FlushSec == 0 &&
      !Config.SamplerThreadOnly && startOwnTimer() == 0) {
    TimedBy.store(OwnTimer);
    return 0;
  }
  TimedBy.store(SamplerThread);
  return startSamplerThread();
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
  if (int Err = startTiming()) {
    Enabled.store(false);
    return Err;
  }
  return 0;
}

void stopSampling() {
  StopRequested.store(true);
  Enabled.store(false);
  if (TimedBy.load() == OwnTimer)
    stopOwnTimer();
  // A handler or tick that saw Enabled before the store finishes within
  // microseconds; give up after a second rather than hang an exiting
  // program.
  for (int Spin = 0; InFlight.load() != 0 && Spin < 10000; ++Spin) {
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
  // Samples whose signal has not arrived yet are recorded as copied.
  for (uint32_t I = 0, Limit = threadSlotLimit(); I < Limit; ++I) {
    ThreadSlot &T = threadSlot(I);
    if (T.SnapState.load(std::memory_order_acquire) == ThreadSlot::SnapReady) {
      nameThread(T, false);
      recordSnapshotWithoutLeaf(T, Fallback::Unknown);
    }
  }
}

bool runOnSampler(void (*Work)(int), int Arg, int TimeoutMs) {
  if (StopRequested.load() || TimedBy.load() != SamplerThread)
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
  // The parent's timer and sampler thread do not survive a fork.
  OwnTimerId = -1;
  if (!Enabled.load() || StopRequested.load())
    return;
  if (TimedBy.load() == OwnTimer && startOwnTimer() == 0)
    return;
  TimedBy.store(SamplerThread);
  (void)startSamplerThread();
}

} // namespace spinelprof

/// For bench/overhead/micro/depthbench.c: makes the calling thread's next
/// SIGPROF a sample (count 1, weight 0) exactly as the sampler thread
/// would, its stack copied now; returns whether the thread must signal
/// itself (else the sample is recorded already, or profiling is off).
/// Normal context, not concurrently with itself on one thread.
extern "C" __attribute__((visibility("default"))) int
__spinelprof_bench_prepare_sample(void) {
  using namespace spinelprof;
  ThreadSlot *T = currentThreadSlot();
  if (!T || !Enabled.load())
    return 0;
  // A sample the handler gave back to the sampler thread (which also runs)
  // would hold the slot until its next tick: the benchmark drops it.
  uint32_t Returned = ThreadSlot::SnapReturned;
  T->SnapState.compare_exchange_strong(Returned, ThreadSlot::SnapEmpty,
                                       std::memory_order_acq_rel);
  return prepareSample(*T, 0, 1, 0);
}
