//===- spinelprof_signal.cpp - Each thread's sampling timer and handler ---===//
//
// Part of spinelprof. See spinelprof_signal.h for the rule and the design.
//
// Why each thread's own CLOCK_MONOTONIC timer, and not:
// - a CPU-clock timer (setitimer(ITIMER_PROF), timer_create on a thread's
//   CPU clock): the kernel checks those only at its tick (250 Hz here), so
//   samples fall at the tick's instants, and a program whose period is a
//   divisor or multiple of the tick's is seen at one phase only (a 4 ms
//   periodic program got no sample at all in 3 s);
// - a sampler thread that copies stacks and signals threads: its signal
//   reaches a thread running on another CPU tens to hundreds of
//   microseconds late, or at the thread's next system call, so the leaf
//   it reads is not the leaf at the instant; and that cross-CPU signal
//   costs a memory-heavy thread ~50-150 us, and a helper pthread makes
//   glibc's malloc leave its single-thread path.
// The timer fires on the CPU the thread last armed it from (the handler
// re-arms it each sample), so delivery is local and prompt.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_signal.h"

#include "spinelprof_flush_thread.h"
#include "spinelprof_interpose.h"
#include "spinelprof_io.h"
#include "spinelprof_native.h"
#include "spinelprof_sample_table.h"
#include "spinelprof_threads.h"
#include "spinelprof_timeline.h"

#include <algorithm>
#include <atomic>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

namespace spinelprof {

/// Whether native leaves apply: only when the plugin instrumented code in
/// this executable. With frames pushed by hand (runtime tests, other
/// tools) every function would look native.
static bool UseNativeFrames;

#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))
static SPINELPROF_TLS int InHandler;
/// Set on the thread running the exit hook: its handler records nothing.
static SPINELPROF_TLS int ExitHookRuns;

static SamplerConfig Config;
static uint64_t PeriodNs;
static std::atomic<bool> Enabled;
static std::atomic<int> InFlight; // Handlers recording now.

/// A signal delivered later than this after its instant may have waited
/// for the thread to get a CPU (a thread preempted before its instant gets
/// it as it runs again), or followed it to another CPU; the CPU clock then
/// says whether the thread ran on until its instant (ranUntilInstant). One
/// delivered sooner counts without a clock read. Measured here: 95-99 % of
/// the signals of a running thread arrive 30-130 us after their instant
/// (the interrupt goes through the hypervisor). The bound is also the
/// longest preemption whose instants count as running: beside wake-up-
/// heavy load, at 250 us 2.0-3.9 % of the instants counted were of a
/// thread off the CPU, at 100 us 1.9-2.3 %; the running threads' slower
/// signals pass the late rule (bench/accuracy/results/2026-11-27-late-rule.md).
static constexpr uint64_t PromptNs = 100000;
/// Cpu mode: the longest mean interval of a thread found off the CPU, 2^6 Q.
static constexpr uint32_t MaxBackoff = 6;

const char *timerName(bool Wall) {
  return Wall ? "thread timer, CLOCK_MONOTONIC, random intervals"
              : "thread timer, CLOCK_MONOTONIC, random intervals, thread CPU clock";
}

const char *samplerName() { return "in-thread"; }

int profilingSignal() { return SIGRTMAX - 2; }

/// The profiling signal's bit in the kernel's signal mask.
static uint64_t profilingSignalBit() {
  return uint64_t(1) << (profilingSignal() - 1);
}

uint64_t blockProfilingSignal() {
  uint64_t Block = profilingSignalBit(), Saved = 0;
  // 8 bytes of mask: the kernel's, not glibc's 128.
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &Block, &Saved, 8);
  return Saved;
}

void restoreSignalMask(uint64_t Saved) {
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &Saved, nullptr, 8);
}

//===----------------------------------------------------------------------===//
// The timer
//===----------------------------------------------------------------------===//

/// The law's mean interval Q: the period less the sampler's own stall per
/// sample (cpu mode: the stalls are taken out of the time the instants
/// cover, so the rate per CPU-second, the stall included, stays the one
/// asked for; at most a quarter of P), times 2^Backoff. Async-signal-safe.
static uint64_t meanIntervalNs(const ThreadSlot &T) {
  uint64_t Stall = T.StallNs < PeriodNs / 4 ? T.StallNs : PeriodNs / 4;
  return (PeriodNs - Stall) << T.Backoff;
}

/// What one instant of T's law stands for, its mean interval: Q, or 3/4 of
/// a backed-off Q (drawn uniformly in its upper half: nextInstant).
/// Async-signal-safe.
static uint64_t instantWeightNs(const ThreadSlot &T) {
  uint64_t Q = meanIntervalNs(T);
  return T.Backoff ? Q - Q / 4 : Q;
}

/// -ln(U) for U uniform in (0, 1], from 53 random bits: an exponential
/// draw of mean 1. By hand (the runtime links no libm): U = M * 2^E with M
/// in [sqrt(1/2), sqrt(2)), ln M = 2 atanh(S), S = (M - 1) / (M + 1), |S|
/// < 0.172, the series to S^17 (error < 1e-14). Async-signal-safe.
static double exponentialDraw(uint64_t Bits) {
  double U = double((Bits >> 11) + 1) * (1.0 / 9007199254740992.0);
  int E = 0;
  while (U < 0.7071067811865476) {
    U *= 2;
    --E;
  }
  double S = (U - 1) / (U + 1), S2 = S * S, Term = S, Sum = 0;
  for (int K = 1; K <= 17; K += 2, Term *= S2)
    Sum += Term / K;
  return -(E * 0.6931471805599453 + 2 * Sum);
}

/// xorshift64. Async-signal-safe; on T's thread.
static uint64_t randomBits(ThreadSlot &T) {
  uint64_t X = T.Random;
  X ^= X << 13;
  X ^= X >> 7;
  X ^= X << 17;
  T.Random = X;
  return X;
}

/// T's next instant, drawn if it is not yet: an exponential interval of
/// mean Q from the last instant (or from the end of the sampler's own
/// stall after it: shiftInstants). The law is memoryless: whatever the
/// program did, and wherever the last instant fell, every moment of its
/// time ahead has the same chance of holding an instant. A more regular
/// law places each instant by the previous one's phase: a periodic
/// program whose samples' stalls move its next deadline reads up to 2-3
/// pp off with one instant per stratum, none with this law (simulated on
/// an ideal machine: bench/accuracy/law_model.py). A backed-off thread
/// (notRunningInWait) draws uniformly in [Q/2, Q) of its longer Q, so its
/// first instant once it runs again stays within 64 P. Async-signal-safe;
/// on T's thread.
static uint64_t nextInstant(ThreadSlot &T) {
  if (!T.NextDueNs) {
    uint64_t Q = meanIntervalNs(T);
    uint64_t Bits = randomBits(T);
    uint64_t Interval = T.Backoff ? Q / 2 + (Bits >> 11) % (Q / 2)
                                  : uint64_t(double(Q) * exponentialDraw(Bits));
    T.NextDueNs = T.LastInstantNs + (Interval ? Interval : 1);
    T.LastInstantNs = T.NextDueNs;
  }
  return T.NextDueNs;
}

/// Takes Length of the profiler's own time out of the law's time: the
/// instant drawn and the point the next interval starts from move on by
/// Length. Async-signal-safe; on T's thread.
static void shiftInstants(ThreadSlot &T, uint64_t Length) {
  T.LastInstantNs += Length;
  if (T.NextDueNs)
    T.NextDueNs += Length;
}

/// Arms T's timer for the sequence's next instant after Now: the instants
/// form one random sequence on the wall clock, whatever the delivery, so
/// the instants that fell while the thread was off the CPU are skipped,
/// not shifted to after it (which would sample the moments after every
/// preemption too often). Returns how many were skipped outside the last
/// blocking call a wrapper saw (wall mode counts them: the thread stood
/// at the same stack through them). Async-signal-safe (timer_settime); on
/// T's thread.
static uint32_t armTimer(ThreadSlot &T, uint64_t Now) {
  uint32_t Skipped = 0;
  uint64_t Due = nextInstant(T);
  for (int Skips = 0; Due <= Now && Skips < 1000; ++Skips) {
    if (Due < T.BlockStartNs || Due > T.BlockEndNs)
      ++Skipped;
    T.NextDueNs = 0;
    Due = nextInstant(T);
  }
  if (Due <= Now) { // Over 1000 instants behind: start again from Now.
    T.LastInstantNs = Now;
    T.NextDueNs = 0;
    Due = nextInstant(T);
  }
  T.NextDueNs = 0;
  T.DueNs = Due;
  struct itimerspec Spec;
  memset(&Spec, 0, sizeof(Spec));
  Spec.it_value.tv_sec = time_t(Due / 1000000000u);
  Spec.it_value.tv_nsec = long(Due % 1000000000u);
  (void)timer_settime(T.Timer, TIMER_ABSTIME, &Spec, nullptr);
  return Skipped;
}

/// Arms T's timer at Now for its next instant, drawn as if the
/// program resumed at Resume, the expected end of the profiler's own work
/// (start-up, or a sample's stall, this arming included). While that
/// instant passed during the arming itself, moves it, and the law's time, by
/// what the arming took more than expected: an instant in the profiler's
/// own time is none of the program's. timer_settime took 15-35 us on one VM
/// host (it programs the CPU's timer: a hypervisor exit) and 80-200 us
/// under load; ~0.6 us of CPU on another.
/// The profiling signal must be blocked (in its handler, or by
/// startThreadTimer), else it comes on the call's return first: under
/// load, 17 of 24 samples of an empty program stood at the start-up's
/// timer_settime (Runtime/own-start-exit.c). The stale signal comes before
/// the new instant and is nothing (handleProfilingSignal). Returns when
/// the arming ended. Async-signal-safe; on T's thread.
static uint64_t armAfterOwnWork(ThreadSlot &T, uint64_t Resume, uint64_t Now) {
  armTimer(T, Now);
  uint64_t Armed = monotonicNs();
  for (int Tries = 0; Armed >= T.DueNs && Tries < 4; ++Tries) {
    uint64_t Again = Armed + (Armed - Now); // Where the next arming ends.
    T.NextDueNs = T.DueNs;
    shiftInstants(T, Again > Resume ? Again - Resume : 0);
    Resume = Again;
    Now = Armed;
    armTimer(T, Now);
    Armed = monotonicNs();
  }
  return Armed;
}

void startThreadTimer(ThreadSlot &T) {
  if (!Enabled.load() || T.HasTimer.load())
    return;
  struct sigevent Event;
  memset(&Event, 0, sizeof(Event));
  Event.sigev_notify = SIGEV_THREAD_ID;
  Event.sigev_signo = profilingSignal();
  Event.sigev_notify_thread_id = static_cast<pid_t>(T.Tid);
  Event.sigev_value.sival_ptr = &T; // Tells this timer's signal from others.
  if (timer_create(CLOCK_MONOTONIC, &Event, &T.Timer) != 0)
    return; // This thread runs unsampled.
  T.Random = (uint64_t(T.Tid) << 32) ^ monotonicNs() ^ 0x9e3779b97f4a7c15u;
  T.Backoff = 0;
  T.HasTimer.store(true);
  uint64_t Saved = blockProfilingSignal();
  uint64_t Now = monotonicNs();
  T.LastInstantNs = Now;
  T.NextDueNs = 0;
  (void)armAfterOwnWork(T, Now, Now);
  restoreSignalMask(Saved);
}

void stopThreadTimer(ThreadSlot &T) {
  if (T.HasTimer.exchange(false))
    (void)timer_delete(T.Timer);
}

//===----------------------------------------------------------------------===//
// The handler
//===----------------------------------------------------------------------===//

static const FrameDescriptor *const UnknownRoot[1] = {&UnknownFrame};

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

/// Records the calling thread's stack, with the native function at Pc (0:
/// none) as its leaf, and appends the record to the thread's timeline at
/// DueNs, the instant it was due (cpu mode's weights are the writer's to
/// share out, so its events carry none). Async-signal-safe; on T's own
/// thread.
static uint32_t recordOwnStack(ThreadSlot &T, uintptr_t Pc, uint64_t WeightNs,
                               uint32_t Count, uint64_t DueNs) {
  nameThread(T);
  // The interrupted code is suspended, so its stack cannot change under
  // us; viewStack's fence pairs with the push's ordered stores (abi.h).
  StackView S;
  viewStack(S);
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
  uint32_t Slot = recordSample(T.Tid, S, WeightNs, Count);
  if (Slot)
    appendTimeline(T.Record, T.Tid, TimelineKind::Cpu, DueNs, Slot - 1, Count,
                   Config.Wall ? WeightNs : 0);
  return Slot;
}

/// Whether T's timer instant fell inside the last blocking call a wrapper
/// saw (its time is the wrapper's to record). On T's thread.
static bool dueWhileBlocked(const ThreadSlot &T) {
  return T.DueNs >= T.BlockStartNs && T.DueNs <= T.BlockEndNs;
}

/// Wall mode: every instant is a sample, weighing the wall time since the
/// previous one less the time blocking calls recorded themselves. An
/// instant whose signal came late (the thread was preempted: runnable, not
/// running) is counted with the instants that fell since, at the stack the
/// thread stood at through them, so counts follow wall time as the weights
/// do. Arms the next instant. Async-signal-safe; on T's thread.
static void sampleWall(ThreadSlot &T, uintptr_t Pc, uint64_t Now) {
  bool Blocked = dueWhileBlocked(T);
  uint64_t Due = T.DueNs;
  uint32_t Skipped = armTimer(T, Now);
  if (Blocked)
    return;
  uint64_t Span = Now > T.LastWallNs ? Now - T.LastWallNs : 0;
  uint64_t Weight = Span > T.BlockedNs ? Span - T.BlockedNs : 0;
  T.LastWallNs = Now;
  T.BlockedNs = 0;
  recordOwnStack(T, Pc, Weight, 1 + Skipped, Due);
}

/// Whether the signal interrupted a system call that was waiting: the
/// kernel set the thread back to the `syscall` instruction, to restart the
/// call after the handler, or the call returns EINTR. A call that ran to
/// its end (a clock read, a short write) returns its result, so a thread
/// busy in short system calls is not taken for an idle one. Reads the two
/// bytes at the PC, in the PC's page (so mapped). Async-signal-safe.
static bool interruptedWait(void *Context) {
#if defined(__x86_64__)
  if (!Context)
    return false;
  const mcontext_t &M = static_cast<ucontext_t *>(Context)->uc_mcontext;
  uintptr_t Pc = static_cast<uintptr_t>(M.gregs[REG_RIP]);
  if (!Pc)
    return false;
  const unsigned char *P = reinterpret_cast<const unsigned char *>(Pc);
  bool AtSyscall = (Pc & 4095) <= 4094 && P[0] == 0x0f && P[1] == 0x05;
  bool AfterSyscall = (Pc & 4095) >= 2 && P[-2] == 0x0f && P[-1] == 0x05;
  return AtSyscall || (AfterSyscall && M.gregs[REG_RAX] == -EINTR);
#else
  (void)Context;
  return false;
#endif
}

/// Whether a signal delivered at Now came within PromptNs of T's instant.
/// Async-signal-safe.
static bool deliveredPromptly(const ThreadSlot &T, uint64_t Now) {
  return Now <= T.DueNs || Now - T.DueNs <= PromptNs;
}

/// Cpu mode: records T's CPU clock reading Cpu as the CPU time its
/// samples stand for (from registration); the writer shares it out among
/// the thread's samples by their weights. Nothing until the thread has its
/// record (its first sample names it: nameThread); the CPU counts from
/// registration, so a later call loses nothing. Async-signal-safe.
static void setCpuSinceStart(const ThreadSlot &T, uint64_t Cpu) {
  setThreadCpu(T.Record, Cpu > T.StartCpuNs ? Cpu - T.StartCpuNs : 0);
}

void noteFinalCpu(ThreadSlot &T) {
  if (uint64_t Cpu = clockNs(T.CpuClock))
    setCpuSinceStart(T, Cpu);
}

/// The thread's CPU clock now, and the CPU and wall time since the
/// previous read, which becomes this one. Async-signal-safe; on T's thread.
struct CpuSince {
  uint64_t Cpu, CpuSpan, WallSpan;
};
static CpuSince readCpuSince(ThreadSlot &T, uint64_t Now) {
  uint64_t Cpu = threadCpuNs();
  CpuSince Since = {Cpu, Cpu > T.LastReadCpuNs ? Cpu - T.LastReadCpuNs : 0,
                    Now > T.LastReadNs ? Now - T.LastReadNs : 0};
  T.LastReadNs = Now;
  T.LastReadCpuNs = Cpu;
  return Since;
}

/// Whether the thread used under a tenth of a CPU in Since's span: the
/// rule that backs its instants off, and, the other way, ends the backoff.
/// Async-signal-safe.
static bool nearlyIdle(const CpuSince &Since) {
  return Since.CpuSpan * 10 < Since.WallSpan;
}

/// Cpu mode, a signal that came promptly but interrupted a wait no
/// wrapper covers: the thread was asleep at its instant, so no sample. A
/// nearly idle thread (under a tenth of a CPU since the last clock read)
/// is looked at less often (Backoff), so such a wait is seldom
/// interrupted. Async-signal-safe; on T's thread.
static void notRunningInWait(ThreadSlot &T, uint64_t Now) {
  CpuSince Since = readCpuSince(T, Now);
  if (nearlyIdle(Since) && T.Backoff < MaxBackoff)
    ++T.Backoff;
  setCpuSinceStart(T, Since.Cpu);
}

/// Cpu mode: T was found running at its instant; its intervals are of
/// mean Q again, drawn from this instant. Async-signal-safe; on T's thread.
static void endBackoff(ThreadSlot &T) { T.Backoff = 0; }

/// What a read of the thread's CPU clock costs between the instants two
/// reads return (~1-2 us here: a system call). Set at start-up.
static uint64_t CpuReadNs;

/// Cpu mode, a late signal (the thread was preempted, or its signal was
/// blocked): whether the thread ran on from the last read of its CPU clock
/// (Since: a late signal's, a wrapped blocking call's return, or the thread's
/// start; the thread ran then) to its instant: the CPU it used since covers the
/// wall time from that read to the instant (ToInstant), less one read's cost.
/// Under load most late signals are of a thread that lost the CPU before its
/// instant. But a thread preempted on its own timer interrupt's return (a task
/// woken on its CPU) ran through its instant on the CPU the timer fires on, and
/// runs no code of its own before the handler: its stack is the instant's.
/// Under load a thread's run on the CPU mostly begins with a late signal (an
/// instant fell while it waited), so the read is that run's start. A thread
/// switched out and in again between the read and its instant fails the test:
/// one preempted before its instant, or one that moved to another CPU, where
/// the timer's signal reaches it late and at the delivery's stack (unless the
/// CPU it used after the instant covers the wait; logged beside load, no
/// counted late sample had run past its instant). The CPU read in the handler
/// also holds what the thread used from getting a CPU back to the read (the
/// switch's end, the delivery: 5-20 us here, the more under load); counted, an
/// instant in a preemption's first microseconds passes, at the stack the thread
/// was preempted at, most often a system call's return (the threads case's
/// workers' own code, their clock reads, read +0.37-0.57 pp over six rows of
/// ~0.5 %). A thread stopped after its instant ran on through the timer's
/// interrupt and more, most of a prompt sample's stall (StallNs, ~41 us here);
/// half of that stall is the margin, learnt where the program runs (the
/// workers' code: +0.02-0.22 pp; the whole stall lost instants of the system
/// calls they ran through: -0.19 pp;
/// bench/accuracy/results/2026-11-29-late-margin.md). No read is made at each
/// arming to make the span short: a read of the thread's CPU clock makes the
/// kernel account its time slice and preempt it there if the slice is spent,
/// and such reads at 1 kHz cut a profiled program's own ITIMER_PROF ticks from
/// ~115 to 30-60 per CPU-second under load (the kernel checks CPU timers at
/// ticks that hit the thread; the runs ended between them). Async-signal-safe.
static bool ranUntilInstant(const ThreadSlot &T, const CpuSince &Since,
                            uint64_t ToInstant) {
  return Since.CpuSpan + CpuReadNs >= ToInstant + T.StallNs / 2;
}

/// Cpu mode: an instant is one sample when the thread was on the CPU then,
/// weighing the law's mean interval (instantWeightNs; armAfterStall adds
/// the stall it causes): the samples' weights share the thread's CPU time
/// (setCpuSinceStart), so an instant at which the thread was off the CPU
/// moves no CPU time onto the next one. A prompt signal needs no clock read
/// (~2 us here): the thread was running, unless the signal interrupted a
/// wait (notRunningInWait). A late one counts when the thread ran on from
/// the last clock read to its instant (ranUntilInstant). Instants inside a
/// blocking call a wrapper saw are the wrapper's (sampleCall). Returns
/// the sample's slot (recordSample's), or 0. Async-signal-safe; on T's
/// thread.
static uint32_t sampleCpu(ThreadSlot &T, uintptr_t Pc, bool InWait,
                          uint64_t Now) {
  bool Blocked = dueWhileBlocked(T);
  if (deliveredPromptly(T, Now) && !Blocked) {
    if (InWait) {
      notRunningInWait(T, Now);
      return 0;
    }
    endBackoff(T);
    return recordOwnStack(T, Pc, instantWeightNs(T), 1, T.DueNs);
  }
  uint64_t ToInstant = T.DueNs > T.LastReadNs ? T.DueNs - T.LastReadNs : 0;
  CpuSince Since = readCpuSince(T, Now);
  // Not nearly idle since the last look, the rule that backs off: a
  // thread preempted at its instant (under load, most are) is running
  // again. Left backed off until one such instant counts, it went up to
  // 64 Q unsampled each time (Runtime/idle-wait.c beside two busy loops:
  // 101-151 samples of its 300 ms burn in 4 of ~70 runs).
  if (!nearlyIdle(Since))
    endBackoff(T);
  uint32_t Slot = 0;
  if (!Blocked && ranUntilInstant(T, Since, ToInstant))
    Slot = recordOwnStack(T, Pc, instantWeightNs(T), 1, T.DueNs);
  setCpuSinceStart(T, Since.Cpu);
  return Slot;
}

/// Cpu mode: arms the next instant, the sampler's own stall taken out of
/// the law's time. Each sample stops the thread from its instant to the end
/// of the handler (~45 us on a VM, most of it counted as the thread's CPU):
/// time in which no instant can fall. Left in the law's time, the program's
/// own time after a stall-free stretch (a wake-up, a preemption) got
/// instants at 1/P where the rest got 1/(P - stall): the method right
/// after each wake-up read 3 pp low at 5 kHz (bench/accuracy,
/// periodic-4x). The stall ends after the timer_settime below, which takes
/// the previous one's time. Returns the stall, from the instant to the
/// arming's end (0 after a late signal). Async-signal-safe; on T's thread.
static uint64_t armAfterStall(ThreadSlot &T, uint64_t Delivered) {
  uint64_t Due = T.DueNs;
  uint64_t End = monotonicNs();
  if (!deliveredPromptly(T, Delivered)) {
    // A late signal: the thread was off the CPU (or had the signal
    // blocked). The law's time runs on through that wait, as through a
    // blocking call.
    armTimer(T, End);
    return 0;
  }
  uint64_t Resume = End + T.ArmNs;
  shiftInstants(T, Resume - Due);
  uint64_t Armed = armAfterOwnWork(T, Resume, End);
  T.ArmNs = Armed - End;
  // The median, learnt a microsecond a sample: a preemption counted as
  // prompt does not move it, where it would pull an average (under load
  // the rate read +20 % at 5 kHz).
  uint64_t Stall = Armed - Due;
  if (Stall > T.StallNs)
    T.StallNs += 1000;
  else if (T.StallNs >= 1000)
    T.StallNs -= 1000;
  return Stall;
}

/// The profiling signal's handler: this thread's timer fired. Samples the
/// thread (sampleWall, sampleCpu) and arms the next instant.
/// Async-signal-safe: its own stack, the lock-free table, clock reads and
/// timer_settime; no malloc, locks or stdio. Not re-entrant (InHandler).
/// Keeps errno.
static void handleProfilingSignal(int, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  ThreadSlot *T = currentThreadSlot();
  if (!InHandler && !ExitHookRuns && T && Info && Info->si_code == SI_TIMER &&
      Info->si_value.sival_ptr == T) {
    InHandler = 1;
    InFlight.fetch_add(1);
    if (Enabled.load() && T->HasTimer.load()) {
      uint64_t Now = monotonicNs();
      uintptr_t Pc = programCounter(Context);
      if (Now < T->DueNs) {
        // A signal for an instant a wrapper already counted, or one that
        // passed while the timer was being set (armAfterOwnWork), come
        // after the timer was set for the next one: nothing.
      } else if (Config.Wall) {
        sampleWall(*T, Pc, Now);
      } else {
        // The sample stands for Q of the program's time and for the stall
        // it caused, which the program's rows count as their own CPU: so
        // a row whose samples stall it less (a signal taken at a mask's
        // restore) or more is not read off by the difference.
        uint32_t Slot = sampleCpu(*T, Pc, interruptedWait(Context), Now);
        uint64_t Stall = armAfterStall(*T, Now);
        if (Slot)
          addSampleWeight(Slot, Stall);
      }
    }
    InFlight.fetch_sub(1);
    InHandler = 0;
  }
  errno = SavedErrno;
}

/// The median of nine back-to-back reads of the thread's CPU clock.
/// Start-up.
static uint64_t measureCpuRead() {
  uint64_t Reads[9];
  for (uint64_t &R : Reads) {
    uint64_t A = threadCpuNs();
    R = threadCpuNs() - A;
  }
  std::nth_element(Reads, Reads + 4, Reads + 9);
  return Reads[4];
}

/// Cpu mode: a blocking call that just returned (Start to End; the CPU
/// clock read StartCpu before Start and Cpu before End) as samples of the
/// blocking stack for the CPU it used (a sleep's own system calls, ~20 us
/// here, or all of a short write's time): one per period of CPU, the
/// remainder carried to the next call. Counting the instants that fell
/// inside it, each for CPU / length, read 19 % low on a periodic sleep: a
/// sample in the work before it delays the program (its handler) and
/// shortens the sleep, so instants fell more often in the longer sleeps,
/// whose CPU / length is lower. The instants inside are skipped, the first
/// after it kept (armTimer). End is taken after the closing CPU-clock read,
/// so that read is inside: the first read after a wake-up took 1.6-2.6 us
/// here, not the 0.8 of a read back to back (CpuReadNs), and the call's
/// CPU counted its part before the value while the instants there were
/// sampled too: the sleeping periodic cases' <rest> read 1.03-1.12x its
/// truth (1.01-1.09x since). The two reads' parts after their values (the
/// first outside [Start, End] but in the CPU, the second the other way)
/// cancel. On T's thread, normal context.
static void sampleCall(ThreadSlot &T, uint64_t Start, uint64_t StartCpu,
                       uint64_t Cpu, uint64_t End) {
  uint64_t Due = T.DueNs;
  if (Due >= Start && Due <= End) {
    for (int Skips = 0; Due <= End && Skips < 100000; ++Skips) {
      T.DueNs = Due; // The last instant inside: its signal is no sample.
      T.NextDueNs = 0;
      Due = nextInstant(T); // Kept for armTimer.
    }
  }
  uint64_t InCall = Cpu > StartCpu ? Cpu - StartCpu : 0;
  T.InCallCredit += InCall < End - Start ? InCall : End - Start;
  uint64_t Count = T.InCallCredit / PeriodNs;
  T.InCallCredit -= Count * PeriodNs;
  if (Count)
    recordOwnStack(T, 0, Count * PeriodNs, uint32_t(Count), Start);
  setCpuSinceStart(T, Cpu);
}

/// Takes the profiling signal that waited while blocked, if it came, so
/// that no handler runs for an instant inside the call (sampleCall).
/// The caller arms the next instant. On the thread, signal blocked.
static void takeHeldSignal() {
  uint64_t Set = profilingSignalBit();
  struct timespec Zero = {0, 0};
  // The raw system call: 8 bytes of mask, and not the program's sigtimedwait
  // (which the archive wraps).
  (void)syscall(SYS_rt_sigtimedwait, &Set, nullptr, &Zero, 8);
}

bool callCpuNeeded() { return Enabled.load() && !Config.Wall; }

void blockingCallReturns(ThreadSlot &T, uint64_t StartNs, uint64_t StartCpuNs) {
  uint64_t End = monotonicNs();
  T.BlockStartNs = StartNs;
  T.BlockEndNs = End;
  if (!Enabled.load() || !T.HasTimer.load())
    return;
  if (!Config.Wall) {
    if (!StartCpuNs || End < StartNs)
      return;
    uint64_t Cpu = readCpuSince(T, End).Cpu;
    End = monotonicNs(); // The read inside the call: sampleCall.
    T.BlockEndNs = End;
    bool DueInside = T.DueNs >= StartNs && T.DueNs <= End;
    sampleCall(T, StartNs, StartCpuNs, Cpu, End);
    if (DueInside) {
      takeHeldSignal();
      armTimer(T, End);
    }
    return;
  }
  // Wall mode: the call's length, exactly, on the blocking stack; as
  // samples, one per period, the remainder carried to the next call (so
  // many short calls are counted in proportion to their time).
  uint64_t Length = End > StartNs ? End - StartNs : 0;
  T.BlockedNs += Length;
  T.BlockCarryNs += Length;
  T.BlockCreditNs += Length;
  uint64_t Count = T.BlockCreditNs / PeriodNs;
  if (Count == 0)
    return;
  T.BlockCreditNs -= Count * PeriodNs;
  // One event for the call, at its start.
  recordOwnStack(T, 0, T.BlockCarryNs, uint32_t(Count), StartNs);
  T.BlockCarryNs = 0;
}

//===----------------------------------------------------------------------===//
// Start, stop, fork
//===----------------------------------------------------------------------===//

int startSampling(const SamplerConfig &C) {
  Config = C;
  PeriodNs = 1000000000u / uint64_t(C.Hz > 0 ? C.Hz : 1);
  UseNativeFrames = reinterpret_cast<uintptr_t>(__start_spinelprof_frames) !=
                    reinterpret_cast<uintptr_t>(__stop_spinelprof_frames);
  struct sigaction Old;
  if (sigaction(profilingSignal(), nullptr, &Old) != 0)
    return errno;
  if ((Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
    return ENOTSUP; // The program's own: stand aside.
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = handleProfilingSignal;
  // SA_RESTART: the signal must not make the program's read/write fail
  // with EINTR (calls outside the wrappers, e.g. inside libc).
  Action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Action.sa_mask);
  // The SIGINT/SIGTERM handler waits for handlers in flight: it must not
  // run on top of this one.
  sigaddset(&Action.sa_mask, SIGINT);
  sigaddset(&Action.sa_mask, SIGTERM);
  if (sigaction(profilingSignal(), &Action, nullptr) != 0)
    return errno;
  CpuReadNs = measureCpuRead();
  Enabled.store(true);
  return 0;
}

void holdSamplesForExit() {
  ExitHookRuns = 1;
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

void startMainThreadTimer() {
  if (ThreadSlot *T = currentThreadSlot()) {
    // The main thread registered before the rest of start-up (native
    // names, the allocation profile, the handlers: milliseconds, tens
    // under ASan), whose CPU time no sample stands for.
    startClocks(*T);
    startThreadTimer(*T);
  }
}

/// Waits (a second at most) until no handler is recording. A deadline,
/// not a count of pauses: under load a pause lasts several times the
/// 100 us asked, and a signal ends one early. Async-signal-safe.
static void awaitHandlers() {
  uint64_t Deadline = monotonicNs() + 1000000000u;
  while (InFlight.load() != 0 && monotonicNs() < Deadline) {
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
}

void signalTakenOver() {
  if (!Enabled.exchange(false))
    return;
  for (uint32_t I = 0, Limit = threadSlotLimit(); I < Limit; ++I)
    stopThreadTimer(threadSlot(I));
  // No handler of ours may arm a timer id the program could reuse now.
  awaitHandlers();
  static const char Line[] =
      "spinelprof: the program installs a handler for SIGRTMAX-2, which "
      "profiling uses; sampling stops\n";
  (void)writeAll(2, Line, sizeof(Line) - 1);
}

void stopSampling() {
  stopFlushThread();
  Enabled.store(false);
  struct itimerspec Off;
  memset(&Off, 0, sizeof(Off));
  for (uint32_t I = 0, Limit = threadSlotLimit(); I < Limit; ++I) {
    ThreadSlot &T = threadSlot(I);
    if (T.HasTimer.load())
      (void)timer_settime(T.Timer, 0, &Off, nullptr);
    if (!Config.Wall && T.State.load() == ThreadSlot::Active)
      noteFinalCpu(T);
  }
  // A handler that saw Enabled before the store finishes within
  // microseconds; give up after a second rather than hang an exiting
  // program.
  awaitHandlers();
  // No handler names a thread now: the names its threads have at the end.
  for (uint32_t I = 0, Limit = threadSlotLimit(); I < Limit; ++I)
    if (threadSlot(I).State.load() == ThreadSlot::Active)
      refreshThreadName(threadSlot(I));
}

void restartSamplingAfterFork() {
  InFlight.store(0);
  resetSampleTable();
  resetThreadsAfterFork(); // Re-creates this thread's timer.
  restartFlushThreadAfterFork(Enabled.load());
}

} // namespace spinelprof

/// For bench/overhead/micro/depthbench.c: takes one sample of the calling
/// thread now, exactly as its timer's signal handler does (the clock
/// reads, the stack, the record, the next instant armed); returns whether
/// profiling is on. Normal context, on a registered thread.
extern "C" __attribute__((visibility("default"))) int
__spinelprof_bench_sample(void) {
  using namespace spinelprof;
  ThreadSlot *T = currentThreadSlot();
  if (!T || !Enabled.load() || !T->HasTimer.load())
    return 0;
  uint64_t Now = monotonicNs();
  T->DueNs = Now;
  if (Config.Wall) {
    sampleWall(*T, 0, Now);
  } else {
    sampleCpu(*T, 0, false, Now);
    armTimer(*T, monotonicNs());
  }
  return 1;
}
