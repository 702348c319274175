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
#include <linux/futex.h>
#include <sched.h>
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

/// What runs the sampler loop. While the program has one thread (no
/// periodic flush), a thread made with clone() that glibc does not know
/// of: glibc's malloc then keeps its single-thread fast path, which the
/// first pthread_create ends for good (one idle pthread made Spinel's
/// allocating benchmarks up to x1.6 slower, docs/performance.md). The
/// program's second thread hands sampling to a pthread for good, which can
/// also run the writer (flush, SIGINT).
enum Timing : int { NoTiming = 0, Ticker = 1, SamplerThread = 2 };
static std::atomic<int> TimedBy;
/// The ticker's tid while it runs; the kernel clears it and wakes its
/// futex when the ticker ends (CLONE_CHILD_CLEARTID).
static volatile pid_t TickerTid;
/// Bumped (and futex-woken) to wake the sampler loop before its time.
static std::atomic<uint32_t> WakeWord;
/// Asks the ticker to end (hand-over to the sampler thread).
static std::atomic<bool> TickerStop;

// Work handed to the sampler thread (runOnSampler).
static std::atomic<void (*)(int)> PendingWork;
static std::atomic<int> PendingArg;
static std::atomic<uint32_t> WorkDone;

uint64_t clockNs(clockid_t Clock) {
  struct timespec T;
  if (clock_gettime(Clock, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t threadCpuNs() { return clockNs(CLOCK_THREAD_CPUTIME_ID); }
uint64_t processCpuNs() { return clockNs(CLOCK_PROCESS_CPUTIME_ID); }
uint64_t monotonicNs() { return clockNs(CLOCK_MONOTONIC); }

/// A system call that leaves errno alone: returns the result or -errno.
/// The ticker shares the main thread's TLS (it is no glibc thread), so it
/// must never write errno. Async-signal-safe.
static long rawSyscall(long N, long A = 0, long B = 0, long C = 0, long D = 0,
                       long E = 0, long F = 0) {
#if defined(__x86_64__)
  long R;
  register long R10 __asm__("r10") = D;
  register long R8 __asm__("r8") = E;
  register long R9 __asm__("r9") = F;
  __asm__ volatile("syscall"
                   : "=a"(R)
                   : "a"(N), "D"(A), "S"(B), "d"(C), "r"(R10), "r"(R8),
                     "r"(R9)
                   : "rcx", "r11", "memory");
  return R;
#else
  int Saved = errno;
  long R = syscall(N, A, B, C, D, E, F);
  if (R == -1)
    R = -errno;
  errno = Saved;
  return R;
#endif
}

const char *samplerName() {
  return RealTime.load() ? "realtime" : "normal";
}

const char *timerName(bool Wall) {
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
/// than its CPU time says. Returns the count (0: none yet). The sampler
/// loop only.
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

// The sampler's copy of a stack it records itself. Sampler thread only.
static const FrameDescriptor *CopyBuffer[StackCopyCapacity];

static uint64_t cpuClockNs(const ThreadSlot &T) {
  struct timespec Ts;
  // Raw: the ticker must not write errno.
  if (rawSyscall(SYS_clock_gettime, T.CpuClock, long(&Ts)) != 0)
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
    // Raw: the ticker must not write errno.
    long R = rawSyscall(SYS_mmap, 0, StackCopyCapacity * sizeof(*T.SnapFrames),
                        PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *P = R < 0 && R > -4096 ? MAP_FAILED : reinterpret_cast<void *>(R);
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
    rawSyscall(SYS_tgkill, Pid, T.Tid, SIGPROF);
}

/// The tick's work for one thread. Wall mode samples every thread,
/// weighted by wall time; cpu mode reads each thread's CPU clock and
/// samples the threads owed a sample (owedSamples). Sampler thread only,
/// holding T.
static void tickThread(ThreadSlot &T, uint64_t NowNs) {
  if (Config.Wall) {
    uint64_t Weight = NowNs > T.LastWallNs ? NowNs - T.LastWallNs : 0;
    T.LastWallNs = NowNs;
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

/// Sleeps until CLOCK_MONOTONIC reads Ns, or until WakeWord is bumped
/// (stop, hand-over). Raw futex: no errno. Either sampler.
static void sleepUntil(uint64_t Ns) {
  uint32_t Seen = WakeWord.load();
  if (StopRequested.load())
    return;
  struct timespec T = {time_t(Ns / 1000000000u), long(Ns % 1000000000u)};
  // FUTEX_WAIT_BITSET: an absolute CLOCK_MONOTONIC deadline.
  rawSyscall(SYS_futex, long(&WakeWord), FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG,
             long(Seen), long(&T), 0, long(FUTEX_BITSET_MATCH_ANY));
}

/// Wakes the sampler loop now. Async-signal-safe.
static void wakeSampler() {
  WakeWord.fetch_add(1);
  rawSyscall(SYS_futex, long(&WakeWord), FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1);
}

/// The sampler loop, on the ticker or the sampler thread, until stopped
/// (or, on the ticker, handed over). Only the sampler thread runs work
/// handed to it (runOnSampler) and flushes.
static void runSampler(bool OnTicker) {
  (void)prctl(PR_SET_NAME, "spinelprof", 0, 0, 0);
  // Real-time priority when allowed: a waking SCHED_OTHER thread may wait
  // for the running thread's next syscall or tick before it runs (lazy
  // preemption), and the signal then lands right after that syscall; on
  // this kernel that put 5-10x too many samples on code next to frequent
  // syscalls. A SCHED_FIFO sampler runs at its time. Each tick is a few
  // microseconds, so it takes little from the program either way. (Raw:
  // the ticker must not write errno, and EPERM is the usual answer.)
  struct sched_param Priority;
  memset(&Priority, 0, sizeof(Priority));
  Priority.sched_priority = 1;
  RealTime.store(rawSyscall(SYS_sched_setscheduler, 0, SCHED_FIFO,
                            long(&Priority)) == 0);
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
    if (OnTicker && TickerStop.load())
      break;
    if (OnTicker) {
      // Nothing else: the ticker never runs the writer.
    } else if (void (*Work)(int) = PendingWork.exchange(nullptr)) {
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
    if (!OnTicker && NextFlush && Now >= NextFlush && Config.Flush) {
      Config.Flush();
      NextFlush += FlushNs;
      if (NextFlush <= Now)
        NextFlush = Now + FlushNs;
    }
  }
}

static void *samplerMain(void *) {
  runSampler(false);
  return nullptr;
}

/// The ticker: the sampler loop on a clone() thread that shares the main
/// thread's TLS (it has none of its own). Everything the loop calls must
/// leave TLS alone: no errno (raw syscalls, or calls that cannot fail
/// here), no malloc, no stdio; only the main thread is registered (the
/// ticker ends before a second one is), and the writer never runs here
/// (no flush; SIGINT writes from a copy of the process). Under ASan the
/// loop's memory accesses are checked against shadow memory as usual.
static int tickerMain(void *) {
  runSampler(true);
  return 0;
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

static constexpr size_t TickerStackSize = 256 * 1024;
static void *TickerStack; // Mapped once, kept (a fork child reuses it).

/// Starts the ticker. Returns 0 or an errno. Normal context.
static int startTicker() {
  if (!TickerStack) {
    void *P = mmap(nullptr, TickerStackSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (P == MAP_FAILED)
      return errno;
    TickerStack = P;
  }
  TickerStop.store(false);
  // The ticker gets no signals at all, as the sampler thread.
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  int Tid = clone(tickerMain, static_cast<char *>(TickerStack) + TickerStackSize,
                  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
                      CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
                      CLONE_CHILD_CLEARTID,
                  nullptr, const_cast<pid_t *>(&TickerTid), nullptr,
                  const_cast<pid_t *>(&TickerTid));
  int Err = Tid < 0 ? errno : 0;
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  return Err;
}

/// Ends the ticker and waits (1 s at most) until it has. Normal context.
static void stopTicker() {
  TickerStop.store(true);
  wakeSampler();
  for (int Tries = 0; Tries < 100; ++Tries) {
    pid_t Tid = TickerTid;
    if (Tid == 0)
      return;
    struct timespec Pause = {0, 10000000};
    rawSyscall(SYS_futex, long(&TickerTid), FUTEX_WAIT, Tid, long(&Pause));
  }
}

void beforeSecondThread() {
  if (TimedBy.load() != Ticker)
    return;
  // SIGINT/SIGTERM wait until the hand-over is done: their handler would
  // otherwise wait for a sampler thread this thread has yet to start.
  sigset_t Block, Saved;
  sigemptyset(&Block);
  sigaddset(&Block, SIGINT);
  sigaddset(&Block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &Block, &Saved);
  int Expected = Ticker;
  if (TimedBy.compare_exchange_strong(Expected, SamplerThread)) {
    // The ticker ends before the sampler thread starts: one sampler loop.
    stopTicker();
    if (!StopRequested.load())
      if (int Err = startSamplerThread())
        printMessage("cannot start the sampler thread: %s; sampling stops",
                     strerror(Err));
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
}

/// Under ThreadSanitizer a process always has a second thread (TSan's
/// own), so the ticker would save nothing, and TSan would not know its
/// thread: the sampler thread, always.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SPINELPROF_TICKER 0
#endif
#endif
#ifndef SPINELPROF_TICKER
#define SPINELPROF_TICKER 1
#endif

/// Starts the sampler loop: on the ticker while the program has one
/// thread (not with periodic flushing, which runs the writer on the
/// sampler's thread, nor with SPINEL_PROFILE_TIMER=thread), else, or if
/// the ticker cannot start, on the sampler thread. Normal context.
static int startTiming() {
  if (SPINELPROF_TICKER && Config.FlushSec == 0 &&
      !Config.SamplerThreadOnly && startTicker() == 0) {
    TimedBy.store(Ticker);
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
  wakeSampler();
  // The ticker must be gone before the process exits (LSan, for one,
  // would meet a thread it does not know).
  if (TimedBy.load() == Ticker)
    stopTicker();
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
  // The parent's ticker or sampler thread did not survive the fork.
  TickerTid = 0;
  if (!Enabled.load() || StopRequested.load())
    return;
  if (TimedBy.load() == Ticker && startTicker() == 0)
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
