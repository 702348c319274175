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

#include "spinelprof_interpose.h"
#include "spinelprof_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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
  // A reused stack keeps its gen (it must never go down), and no copy
  // reads it: it is in no thread's chain.
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
  sigset_t Block;
  sigemptyset(&Block);
  sigaddset(&Block, SIGPROF);
  static_assert(sizeof(Scope.SavedMask) >= 8, "the kernel's sigset");
  // The raw syscall: 8 bytes of mask, not glibc's 128.
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &Block, Scope.SavedMask, 8);
  spinelprof_shadow_stack *S = currentStack();
  uint32_t D = S->depth;
  // A push as abi.h says: gen, slot, depth. Atomic (relaxed: the same
  // stores on x86-64) because the sampler may be copying this stack from
  // outside, seqlock-style, when the thread comes back from one blocking
  // call and enters the next; the copy is then discarded, but the access
  // must not be a data race (TSan reports it).
  __atomic_store_n(&S->gen, S->gen + 1, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_release);
  __atomic_store_n(
      &S->frames[D < SPINELPROF_STACK_CAPACITY ? D : SPINELPROF_STACK_CAPACITY],
      Frame, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_release);
  __atomic_store_n(&S->depth, D + 1, __ATOMIC_RELEASE);
  Scope.SavedDepth = D;
  Scope.Stack = S;
  ThreadSlot *T = MySlot;
  Scope.Thread = T;
  // Odd: the sampler may now read this stack from outside.
  if (T)
    T->BlockSeq.fetch_add(1, std::memory_order_seq_cst);
}

static void leaveBlocking(BlockingScope &Scope) {
  if (auto *T = static_cast<ThreadSlot *>(Scope.Thread))
    T->BlockSeq.fetch_add(1, std::memory_order_seq_cst);
  auto *S = static_cast<spinelprof_shadow_stack *>(Scope.Stack);
  __atomic_store_n(&S->depth, Scope.SavedDepth, __ATOMIC_RELEASE);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, Scope.SavedMask, nullptr, 8);
}

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

static void threadStarted() { registerCurrentThread(); }
static void threadFinished() { unregisterCurrentThread(); }

static const InterposeHooks TheHooks = {
    enterBlocking, leaveBlocking, beforeSecondThread, threadStarted,
    threadFinished, fiberCreated, fiberEntered, fiberReturned,
    beforeSwitch,   afterSwitch};

static void exitKeyDestructor(void *) { unregisterCurrentThread(); }

int initThreads() {
  if (int Err = pthread_key_create(&ExitKey, exitKeyDestructor))
    return Err;
  registerCurrentThread();
  setInterposeHooks(&TheHooks);
  return 0;
}

void registerCurrentThread() {
  if (MySlot)
    return;
  clockid_t Clock;
  if (pthread_getcpuclockid(pthread_self(), &Clock) != 0)
    return;
  for (uint32_t I = 0; I < SlotCapacity; ++I) {
    ThreadSlot &S = Slots[I];
    uint32_t Expected = ThreadSlot::Free;
    if (!S.State.compare_exchange_strong(Expected, ThreadSlot::Claimed))
      continue;
    S.Tid = static_cast<uint32_t>(gettid());
    S.CpuClock = Clock;
    S.OwnStack = &__spinelprof_stack;
    S.OffsetVar = &__spinelprof_stack_offset;
    S.BlockSeq.store(0);
    S.SwitchSeq.store(0);
    S.Named.store(0);
    // SnapFrames stays: the buffer belongs to the slot.
    S.SnapState.store(ThreadSlot::SnapEmpty);
    S.Returns = 0;
    // From now on: the CPU the thread used before it was registered (for
    // the main thread, the dynamic loader and the profiler's start-up) is
    // no sample's; counted from 0, the first tick dumped it as owed
    // samples on whatever stack was current (Stress/fibers: 24 samples at
    // 10 kHz on main's first call).
    S.LastCpuNs = threadCpuNs(); // This thread's own clock.
    S.LastSampleNs = S.LastCpuNs;
    S.LastWallNs = monotonicNs(); // Wall mode weighs from here, not from 0.
    S.CreditNs = 0;
    // Bump the limit before publishing, so the sampler's walk covers I.
    uint32_t Limit = SlotLimit.load();
    while (Limit < I + 1 && !SlotLimit.compare_exchange_weak(Limit, I + 1)) {
    }
    MySlot = &S;
    (void)pthread_setspecific(ExitKey, &S);
    S.State.store(ThreadSlot::Active, std::memory_order_seq_cst);
    return;
  }
  // Registry full: the thread runs unprofiled.
}

void unregisterCurrentThread() {
  ThreadSlot *S = MySlot;
  if (!S)
    return;
  (void)pthread_setspecific(ExitKey, nullptr);
  // A sample the handler has not taken yet (the signal is still on its way)
  // is recorded as copied, before the slot goes.
  if (S->SnapState.load(std::memory_order_acquire) == ThreadSlot::SnapReady)
    nameThread(*S, true);
  recordSnapshotWithoutLeaf(*S, Fallback::OwnStack);
  MySlot = nullptr;
  S->State.store(ThreadSlot::Leaving, std::memory_order_seq_cst);
  // The sampler may be copying this thread's stack; it finishes in
  // microseconds. The thread's memory must outlive that read.
  for (int Spin = 0; S->Busy.load(std::memory_order_seq_cst) && Spin < 100000;
       ++Spin)
    sched_yield();
  S->State.store(ThreadSlot::Free, std::memory_order_release);
}

ThreadSlot *currentThreadSlot() { return MySlot; }
uint32_t threadSlotLimit() { return SlotLimit.load(std::memory_order_acquire); }
ThreadSlot &threadSlot(uint32_t I) { return Slots[I]; }

void resetThreadsAfterFork() {
  ThreadSlot *Mine = MySlot;
  for (uint32_t I = 0; I < SlotCapacity; ++I)
    if (&Slots[I] != Mine) {
      Slots[I].Busy.store(0);
      Slots[I].SnapState.store(ThreadSlot::SnapEmpty);
      Slots[I].State.store(ThreadSlot::Free);
    }
  if (Mine) {
    Mine->Tid = static_cast<uint32_t>(gettid());
    Mine->Busy.store(0);
    Mine->Named.store(0);
    Mine->SnapState.store(ThreadSlot::SnapEmpty);
    Mine->CreditNs = 0;
    Mine->Returns = 0;
    clockid_t Clock;
    if (pthread_getcpuclockid(pthread_self(), &Clock) == 0)
      Mine->CpuClock = Clock;
    Mine->LastCpuNs = threadCpuNs();
    Mine->LastSampleNs = Mine->LastCpuNs;
    Mine->LastWallNs = monotonicNs();
  } else {
    registerCurrentThread();
  }
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

const FrameDescriptor *stackTop(const spinelprof_shadow_stack *Own,
                                intptr_t Offset) {
  const spinelprof_shadow_stack *S = stackAt(Own, Offset);
  uint32_t Depth = __atomic_load_n(&S->depth, __ATOMIC_ACQUIRE);
  if (Depth == 0)
    return nullptr;
  if (Depth > SPINELPROF_STACK_CAPACITY)
    return &TruncatedFrame;
  return __atomic_load_n(&S->frames[Depth - 1], __ATOMIC_ACQUIRE);
}

static constexpr int CopyTries = 4;

/// A copy slower than this is thrown away: gen, 32 bits, could have wrapped
/// round to the same value (2^32 pushes take seconds).
static constexpr uint64_t MaxCopyNs = 1000000000u;

static uint64_t coarseNs() {
  struct timespec T;
  if (clock_gettime(CLOCK_MONOTONIC_COARSE, &T) != 0)
    return 0;
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

namespace {
/// A stack of the chain a copy reads, with its gen and depth read first.
struct ChainLevel {
  const spinelprof_shadow_stack *Stack;
  uint32_t Gen;
  uint32_t Depth;
};
} // namespace

// Reading a stack that its thread keeps changing, seqlock-style. The owner
// pushes by bumping gen, then writing the slot, then the depth (abi.h), and
// pops by storing a lower depth; gen never goes down. x86-64 keeps the
// owner's stores in that order for every other CPU, and the copy's loads
// (acquire) are kept in program order too, so each load sees the owner's
// memory at a point of its store order no earlier than the load before.
// Each try reads the fiber switch sequence, the chain of stacks, each
// stack's gen and then depth, the slots below each depth, each depth and
// then gen again, and the switch sequence again, and keeps the copy only if
// the second reads equal the first. Then no push happened on any of the
// stacks while the slots were read (a push's gen store comes before its
// slot and depth stores; only a push under way when gen was first read
// could still store, and its slot is at or above the depth read), no pop
// either (without a push the depth only goes down), and no fiber switch:
// the copy is the thread's stack as it was at one moment, exactly, not a
// probability. (A returns_twice re-push is a push; the blocking-call and
// manual pushes follow the same order.) A try fails whenever the owner
// pushes or pops during it; after CopyTries failures the caller gets
// nothing, and its signal handler, on the thread itself, settles the
// sample. AArch64 does not keep the owner's stores in order for other CPUs
// (they are plain stores): there a copy could be torn.
bool copyStack(const ThreadSlot &T, const FrameDescriptor **Buffer,
               StackCopy &Out) {
  Out.Length = 0;
  Out.Leaf = nullptr;
  Out.Top = nullptr;
  ChainLevel Chain[(StackView::MaxSegments + 1) / 2];
  for (int Try = 0; Try < CopyTries; ++Try) {
    uint64_t StartNs = coarseNs();
    uint32_t Switch = T.SwitchSeq.load(std::memory_order_acquire);
    if (Switch & 1)
      continue; // A fiber switch under way.
    intptr_t Offset = __atomic_load_n(T.OffsetVar, __ATOMIC_ACQUIRE);
    uint32_t Levels = 0;
    const spinelprof_shadow_stack *Cur = stackAt(T.OwnStack, Offset);
    while (Cur && Levels < sizeof(Chain) / sizeof(Chain[0])) {
      Chain[Levels++].Stack = Cur;
      if (Cur == T.OwnStack)
        break;
      Cur = __atomic_load_n(
          &reinterpret_cast<const FiberStack *>(Cur)->Resumer,
          __ATOMIC_ACQUIRE);
    }
    for (uint32_t L = 0; L < Levels; ++L) {
      Chain[L].Gen = __atomic_load_n(&Chain[L].Stack->gen, __ATOMIC_ACQUIRE);
      Chain[L].Depth =
          __atomic_load_n(&Chain[L].Stack->depth, __ATOMIC_ACQUIRE);
    }
    // Root first, as viewStack: each resumer below the fiber it resumed,
    // a "[fiber]" marker between.
    uint32_t N = 0;
    bool Truncated = false;
    for (uint32_t L = Levels; L-- > 0;) {
      uint32_t Depth = Chain[L].Depth;
      if (Depth > SPINELPROF_STACK_CAPACITY) {
        Depth = SPINELPROF_STACK_CAPACITY;
        Truncated = L == 0;
      }
      if (L + 1 < Levels)
        Buffer[N++] = &FiberMarkerFrame;
      const FrameDescriptor *const *Frames = Chain[L].Stack->frames;
      for (uint32_t I = 0; I < Depth; ++I)
        Buffer[N++] = __atomic_load_n(&Frames[I], __ATOMIC_ACQUIRE);
    }
    bool Same = true;
    for (uint32_t L = 0; L < Levels; ++L) {
      uint32_t Depth =
          __atomic_load_n(&Chain[L].Stack->depth, __ATOMIC_ACQUIRE);
      uint32_t Gen = __atomic_load_n(&Chain[L].Stack->gen, __ATOMIC_ACQUIRE);
      Same = Same && Depth == Chain[L].Depth && Gen == Chain[L].Gen;
    }
    Same = Same && T.SwitchSeq.load(std::memory_order_acquire) == Switch;
    if (!Same || coarseNs() - StartNs >= MaxCopyNs)
      continue;
    Out.Length = N;
    if (Truncated) {
      Out.Leaf = Out.Top = &TruncatedFrame;
    } else {
      if (N == 0)
        Out.Leaf = &UnknownFrame;
      // As stackTop: the top frame of the stack in use, if it has one.
      if (Levels && Chain[0].Depth)
        Out.Top = Buffer[N - 1];
    }
    return true;
  }
  return false;
}

void recordSnapshotWithoutLeaf(ThreadSlot &T, Fallback F) {
  uint32_t Ready = ThreadSlot::SnapReady;
  if (!T.SnapState.compare_exchange_strong(Ready, ThreadSlot::SnapTaken,
                                           std::memory_order_acq_rel))
    return;
  {
    StackView S(T.SnapFrames, T.SnapLength,
                T.SnapLength ? T.SnapLeaf : &UnknownFrame);
    if (T.SnapLive) {
      // No exact copy was read: the stack as it is now, if it can be read.
      StackCopy C;
      S = StackView();
      if (F == Fallback::OwnStack)
        viewStack(&__spinelprof_stack, __spinelprof_stack_offset, S);
      else if (F == Fallback::Recopy && copyStack(T, T.SnapFrames, C))
        S = StackView(T.SnapFrames, C.Length, C.Leaf);
      else
        S.Leaf = &UnknownFrame;
    }
    if (S.Leaf == &TruncatedFrame)
      noteTruncated();
    recordSample(T.Tid, S, T.SnapWeightNs, T.SnapCount);
  }
  T.SnapState.store(ThreadSlot::SnapEmpty, std::memory_order_release);
}

void nameThread(ThreadSlot &T, bool OnItsOwnThread) {
  if (T.Named.load(std::memory_order_relaxed) ||
      T.Named.exchange(1, std::memory_order_relaxed))
    return;
  char Name[16] = "main";
  if (T.Tid != static_cast<uint32_t>(getpid())) {
    if (OnItsOwnThread) {
      (void)prctl(PR_GET_NAME, Name, 0, 0, 0);
      Name[15] = '\0';
    } else {
      // "/proc/self/task/<tid>/comm", built by hand (no snprintf here).
      char Path[48] = "/proc/self/task/";
      size_t L = 16;
      char Digits[12];
      int D = 0;
      for (uint32_t Tid = T.Tid; Tid || !D; Tid /= 10)
        Digits[D++] = char('0' + Tid % 10);
      while (D)
        Path[L++] = Digits[--D];
      memcpy(Path + L, "/comm", 6);
      long FD = syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY | O_CLOEXEC);
      long N = 0;
      if (FD >= 0) {
        N = syscall(SYS_read, FD, Name, sizeof(Name) - 1);
        syscall(SYS_close, FD);
      }
      if (N < 0)
        N = 0;
      Name[N] = '\0';
      if (N && Name[N - 1] == '\n')
        Name[N - 1] = '\0';
    }
  }
  registerThread(T.Tid, Name);
}

} // namespace spinelprof
