//===- spinelprof_threads.cpp - Registered threads and their stacks -------===//
//
// Part of spinelprof. See spinelprof_threads.h.
//
// Fibers: each fiber made by makecontext gets a shadow stack of its own
// (mmap'd, reused once the fiber's body returns). __spinelprof_stack_offset
// points the thread's pushes at the stack of whatever runs: the trampoline
// that starts a fiber sets it to the fiber's stack, and a swapcontext that
// returns (the context is running again) sets it back to the stack that
// context was using. A fiber's stack remembers the stack that resumed it,
// which is where a sample shows it.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_threads.h"

#include "spinelprof_crash.h"
#include "spinelprof_interpose.h"
#include "spinelprof_clock.h"
#include "spinelprof_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

extern "C" {
__attribute__((visibility("default"), tls_model("initial-exec")))
__thread intptr_t __spinelprof_stack_offset;
}

namespace spinelprof {

const FrameDescriptor TruncatedFrame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_SYNTHETIC, 0, 0, "[truncated]", "",
    ""};
const FrameDescriptor UnknownFrame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_SYNTHETIC, 0, 0, "[unknown]", "",
    ""};
static const FrameDescriptor FiberMarkerFrame = {
    SPINELPROF_ABI_VERSION, SPINELPROF_KIND_SYNTHETIC, 0, 0, "[fiber]", "",
    ""};
static const FrameDescriptor *const FiberMarker[1] = {&FiberMarkerFrame};

#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))
static SPINELPROF_TLS ThreadSlot *MySlot;

static constexpr uint32_t SlotCapacity = 1024;
static ThreadSlot Slots[SlotCapacity];
static std::atomic<uint32_t> SlotLimit;
static pthread_key_t ExitKey;

//===----------------------------------------------------------------------===//
// Fibers
//===----------------------------------------------------------------------===//

namespace {
/// A fiber's shadow stack. Stack must stay first: the offset points at it.
struct FiberStack {
  spinelprof_shadow_stack Stack;
  /// The stack that resumed this fiber (its frames show below the fiber's).
  spinelprof_shadow_stack *volatile Resumer;
  FiberStart Start;
  FiberStack *NextFree;
};
} // namespace

static std::atomic_flag FiberLock = ATOMIC_FLAG_INIT;
static FiberStack *FreeFibers;

static spinelprof_shadow_stack *stackAt(const spinelprof_shadow_stack *Own,
                                        intptr_t Offset) {
  return reinterpret_cast<spinelprof_shadow_stack *>(
      reinterpret_cast<uintptr_t>(Own) + Offset);
}

static spinelprof_shadow_stack *currentStack() {
  return stackAt(&__spinelprof_stack, __spinelprof_stack_offset);
}

static void useStack(spinelprof_shadow_stack *S) {
  // A signal handler on this thread reads the offset: one aligned store.
  std::atomic_signal_fence(std::memory_order_release);
  __atomic_store_n(&__spinelprof_stack_offset,
                   intptr_t(reinterpret_cast<uintptr_t>(S) -
                            reinterpret_cast<uintptr_t>(&__spinelprof_stack)),
                   __ATOMIC_RELAXED);
}

/// Bracket a change of the stack in use (the offset, a fiber's resumer, a
/// freed fiber's depth): SwitchSeq is odd in between, so that copyStack,
/// reading from another thread, keeps only a copy of one fiber chain.
/// x86-64 keeps the stores in program order for other CPUs; the fences
/// keep the compiler from moving them.
static void beginSwitch() {
  if (ThreadSlot *T = MySlot) {
    T->SwitchSeq.store(T->SwitchSeq.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
}
static void endSwitch() {
  if (ThreadSlot *T = MySlot)
    T->SwitchSeq.store(T->SwitchSeq.load(std::memory_order_relaxed) + 1,
                       std::memory_order_release);
}

static bool isFiberStack(const spinelprof_shadow_stack *S) {
  return S != &__spinelprof_stack;
}

static void lockFibers() {
  while (FiberLock.test_and_set(std::memory_order_acquire))
    sched_yield();
}
static void unlockFibers() { FiberLock.clear(std::memory_order_release); }

static bool fiberCreated(FiberStart &Start) {
  lockFibers();
  FiberStack *F = FreeFibers;
  if (F)
    FreeFibers = F->NextFree;
  unlockFibers();
  if (!F) {
    void *P = mmap(nullptr, sizeof(FiberStack), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      return false;
    F = static_cast<FiberStack *>(P);
  }
  // No handler reads a reused stack: it is in no thread's chain.
  __atomic_store_n(&F->Stack.depth, 0, __ATOMIC_RELAXED);
  F->Resumer = nullptr;
  F->Start = Start;
  F->Start.Fiber = &F->Start;
  Start.Fiber = &F->Start;
  return true;
}

static FiberStack *fiberOf(FiberStart &Start) {
  return reinterpret_cast<FiberStack *>(reinterpret_cast<char *>(&Start) -
                                        offsetof(FiberStack, Start));
}

/// Whether S is Target or resumed (transitively) by Target.
static bool resumedBy(const spinelprof_shadow_stack *S,
                      const spinelprof_shadow_stack *Target) {
  for (int Level = 0; S && Level < 64; ++Level) {
    if (S == Target)
      return true;
    if (!isFiberStack(S))
      return false;
    S = reinterpret_cast<const FiberStack *>(S)->Resumer;
  }
  return false;
}

/// Makes S the stack in use; the stack in use until now resumed it unless
/// the switch returns to a stack below (a yield).
static void switchTo(spinelprof_shadow_stack *S) {
  spinelprof_shadow_stack *Previous = currentStack();
  if (S == Previous)
    return;
  beginSwitch();
  if (isFiberStack(S) && !resumedBy(Previous, S))
    reinterpret_cast<FiberStack *>(S)->Resumer = Previous;
  useStack(S);
  endSwitch();
}

static void fiberEntered(FiberStart &Start) {
  switchTo(&fiberOf(Start)->Stack);
}

static void fiberReturned(FiberStart &Start) {
  FiberStack *F = fiberOf(Start);
  // The body returned: uc_link's context runs next, usually the resumer.
  // If it was left by a swapcontext, that wrapper restores its stack.
  spinelprof_shadow_stack *Back = F->Resumer;
  beginSwitch();
  useStack(Back ? Back : &__spinelprof_stack);
  __atomic_store_n(&F->Stack.depth, 0, __ATOMIC_RELAXED);
  endSwitch();
  lockFibers();
  F->NextFree = FreeFibers;
  FreeFibers = F;
  unlockFibers();
}

static void *beforeSwitch() { return currentStack(); }

static void afterSwitch(void *Saved) {
  switchTo(static_cast<spinelprof_shadow_stack *>(Saved));
}

//===----------------------------------------------------------------------===//
// Blocking calls
//===----------------------------------------------------------------------===//

static void enterBlocking(BlockingScope &Scope, const FrameDescriptor *Frame) {
  // The clocks first: instants from here on are the call's (the wrapper's
  // own system calls are its CPU), none lost between the block and them.
  Scope.StartCpuNs = callCpuNeeded() ? threadCpuNs() : 0;
  Scope.StartNs = monotonicNs();
  Scope.SavedMask = blockProfilingSignal();
  spinelprof_shadow_stack *S = currentStack();
  uint32_t D = S->depth;
  // A push as abi.h says: slot, then depth.
  __atomic_store_n(
      &S->frames[D < SPINELPROF_STACK_CAPACITY ? D : SPINELPROF_STACK_CAPACITY],
      Frame, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_release);
  __atomic_store_n(&S->depth, D + 1, __ATOMIC_RELEASE);
  Scope.SavedDepth = D;
  Scope.Stack = S;
  Scope.Thread = MySlot;
}

static void leaveBlocking(BlockingScope &Scope) {
  // Still blocked: the handler cannot run while the call is accounted.
  if (auto *T = static_cast<ThreadSlot *>(Scope.Thread))
    blockingCallReturns(*T, Scope.StartNs, Scope.StartCpuNs);
  auto *S = static_cast<spinelprof_shadow_stack *>(Scope.Stack);
  __atomic_store_n(&S->depth, Scope.SavedDepth, __ATOMIC_RELEASE);
  restoreSignalMask(Scope.SavedMask);
}

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

static void threadStarted() { registerCurrentThread(); }
static void threadFinished() { unregisterCurrentThread(); }

static InterposeHooks TheHooks = {
    enterBlocking, leaveBlocking, threadStarted, threadFinished,
    fiberCreated,  fiberEntered,  fiberReturned, beforeSwitch,
    afterSwitch,   signalTakenOver, 0};

static void exitKeyDestructor(void *) { unregisterCurrentThread(); }

int initThreads() {
  if (int Err = pthread_key_create(&ExitKey, exitKeyDestructor))
    return Err;
  registerCurrentThread();
  TheHooks.Signal = profilingSignal();
  setInterposeHooks(&TheHooks);
  return 0;
}

void startClocks(ThreadSlot &T) {
  if (pthread_getcpuclockid(pthread_self(), &T.CpuClock) != 0)
    T.CpuClock = CLOCK_THREAD_CPUTIME_ID; // Read on the thread: its own.
  T.StartCpuNs = threadCpuNs();
  T.LastWallNs = monotonicNs();
  T.LastDeliveryNs = T.LastWallNs;
  T.LastDeliveryCpuNs = T.StartCpuNs;
  T.InCallCredit = 0;
  T.BlockStartNs = T.BlockEndNs = 0;
  T.BlockedNs = T.BlockCarryNs = T.BlockCreditNs = 0;
  T.Backoff = 0;
  T.StallNs = T.ArmNs = 0;
}

void registerCurrentThread() {
  if (MySlot)
    return;
  for (uint32_t I = 0; I < SlotCapacity; ++I) {
    ThreadSlot &S = Slots[I];
    uint32_t Expected = ThreadSlot::Free;
    if (!S.State.compare_exchange_strong(Expected, ThreadSlot::Claimed))
      continue;
    S.Tid = static_cast<uint32_t>(gettid());
    S.OwnStack = &__spinelprof_stack;
    S.OffsetVar = &__spinelprof_stack_offset;
    S.SwitchSeq.store(0);
    S.Named.store(0);
    S.Record = 0; // None until the first sample names the thread.
    startClocks(S);
    // Bump the limit before publishing, so a walk of the slots covers I.
    uint32_t Limit = SlotLimit.load();
    while (Limit < I + 1 && !SlotLimit.compare_exchange_weak(Limit, I + 1)) {
    }
    MySlot = &S;
    crashThreadStarted(); // Its alternate signal stack.
    (void)pthread_setspecific(ExitKey, &S);
    S.State.store(ThreadSlot::Active, std::memory_order_seq_cst);
    startThreadTimer(S);
    return;
  }
  // Registry full: the thread runs unprofiled.
}

void unregisterCurrentThread() {
  ThreadSlot *S = MySlot;
  if (!S)
    return;
  crashThreadFinished();
  (void)pthread_setspecific(ExitKey, nullptr);
  MySlot = nullptr; // A signal still on its way finds no slot: a no-op.
  stopThreadTimer(*S);
  if (S->Named.load())
    noteFinalCpu(*S); // Its CPU to the end: what its samples stand for.
  S->State.store(ThreadSlot::Free, std::memory_order_release);
}

ThreadSlot *currentThreadSlot() { return MySlot; }
uint32_t threadSlotLimit() { return SlotLimit.load(std::memory_order_acquire); }
ThreadSlot &threadSlot(uint32_t I) { return Slots[I]; }

void resetThreadsAfterFork() {
  ThreadSlot *Mine = MySlot;
  for (uint32_t I = 0; I < SlotCapacity; ++I)
    if (&Slots[I] != Mine) {
      Slots[I].HasTimer.store(false); // Timers are not inherited.
      Slots[I].State.store(ThreadSlot::Free);
    }
  if (!Mine) {
    registerCurrentThread();
    return;
  }
  Mine->Tid = static_cast<uint32_t>(gettid());
  Mine->Named.store(0);
  Mine->Record = 0;
  Mine->HasTimer.store(false);
  startClocks(*Mine);
  startThreadTimer(*Mine);
}

//===----------------------------------------------------------------------===//
// Reading a stack
//===----------------------------------------------------------------------===//

void viewStack(const spinelprof_shadow_stack *Own, intptr_t Offset,
               StackView &S) {
  // The chain from the stack in use down to the thread's own, top first.
  const spinelprof_shadow_stack *Chain[(StackView::MaxSegments + 1) / 2];
  uint32_t Levels = 0;
  const spinelprof_shadow_stack *Cur = stackAt(Own, Offset);
  while (Cur && Levels < sizeof(Chain) / sizeof(Chain[0])) {
    Chain[Levels++] = Cur;
    if (Cur == Own)
      break;
    Cur = reinterpret_cast<const FiberStack *>(Cur)->Resumer;
  }
  bool Truncated = false;
  for (uint32_t L = Levels; L-- > 0;) {
    uint32_t Depth = __atomic_load_n(&Chain[L]->depth, __ATOMIC_ACQUIRE);
    if (Depth > SPINELPROF_STACK_CAPACITY) {
      Depth = SPINELPROF_STACK_CAPACITY;
      Truncated = L == 0;
    }
    if (L + 1 < Levels)
      S.add(FiberMarker, 1);
    S.add(Chain[L]->frames, Depth);
  }
  if (Truncated)
    S.Leaf = &TruncatedFrame;
  else if (S.Count == 0)
    S.Leaf = &UnknownFrame;
}

void nameThread(ThreadSlot &T) {
  if (T.Named.load(std::memory_order_relaxed) ||
      T.Named.exchange(1, std::memory_order_relaxed))
    return;
  char Name[16] = "main";
  if (T.Tid != static_cast<uint32_t>(getpid())) {
    (void)prctl(PR_GET_NAME, Name, 0, 0, 0);
    Name[15] = '\0';
  }
  T.Record = registerThread(T.Tid, Name);
}

} // namespace spinelprof
