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
  F->Stack.depth = 0;
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
  if (isFiberStack(S) && !resumedBy(Previous, S))
    reinterpret_cast<FiberStack *>(S)->Resumer = Previous;
  useStack(S);
}

static void fiberEntered(FiberStart &Start) {
  switchTo(&fiberOf(Start)->Stack);
}

static void fiberReturned(FiberStart &Start) {
  FiberStack *F = fiberOf(Start);
  // The body returned: uc_link's context runs next, usually the resumer.
  // If it was left by a swapcontext, that wrapper restores its stack.
  spinelprof_shadow_stack *Back = F->Resumer;
  useStack(Back ? Back : &__spinelprof_stack);
  F->Stack.depth = 0;
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
  // Atomic (relaxed: the same store on x86-64) because the sampler may be
  // copying this stack from outside, seqlock-style, when the thread comes
  // back from one blocking call and enters the next; the copy is then
  // discarded, but the access must not be a data race (TSan reports it).
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
    enterBlocking, leaveBlocking, threadStarted, threadFinished, fiberCreated,
    fiberEntered,  fiberReturned, beforeSwitch,  afterSwitch};

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
    S.Named.store(0);
    // SnapFrames stays: the buffer belongs to the slot.
    S.SnapState.store(ThreadSlot::SnapEmpty);
    S.Returns = 0;
    S.LastCpuNs = 0;
    S.LastSampleNs = 0;
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
  recordSnapshotWithoutLeaf(*S);
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
    Mine->LastCpuNs = 0;
    Mine->LastSampleNs = 0;
    Mine->CreditNs = 0;
    Mine->Returns = 0;
    clockid_t Clock;
    if (pthread_getcpuclockid(pthread_self(), &Clock) == 0)
      Mine->CpuClock = Clock;
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

static constexpr int CopyPasses = 4;
static constexpr int CopyTries = 4;

/// One pass over a stack in use by another thread: its layout (which
/// stacks, how deep) into V and its frames, flattened, into Buffer; or,
/// with Match, compares them with the first Length frames of Buffer
/// instead and sets Match to how many leading frames are the same.
/// Returns the frames read.
static uint32_t readPass(const ThreadSlot &T, intptr_t Offset, StackView &V,
                         const FrameDescriptor **Buffer, uint32_t Length,
                         uint32_t *Match) {
  viewStack(T.OwnStack, Offset, V);
  uint32_t N = 0;
  bool Same = true;
  for (uint32_t G = 0; G < V.SegmentCount; ++G) {
    const StackView::Segment &Seg = V.Segments[G];
    for (uint32_t I = 0; I < Seg.Count && N < StackCopyCapacity; ++I, ++N) {
      const FrameDescriptor *F =
          __atomic_load_n(&Seg.Frames[I], __ATOMIC_ACQUIRE);
      if (!Match)
        Buffer[N] = F;
      else if (Same && (N >= Length || Buffer[N] != F))
        Same = false, *Match = N;
    }
  }
  if (Match && Same)
    *Match = N;
  return N;
}

static bool sameLayout(const StackView &A, const StackView &B) {
  if (A.SegmentCount != B.SegmentCount || A.Leaf != B.Leaf)
    return false;
  for (uint32_t G = 0; G < A.SegmentCount; ++G)
    if (A.Segments[G].Frames != B.Segments[G].Frames ||
        A.Segments[G].Count != B.Segments[G].Count)
      return false;
  return true;
}

// Reading a stack that its thread keeps changing. The owner writes a slot,
// then (release) the depth; a slot at index i is only ever rewritten after
// the depth came down to i. x86-64 keeps one thread's stores in order for
// every other thread, and the copy's loads are acquire loads, so each load
// sees the owner's memory at some point of its store order, never earlier
// than the load before. A single pass can still mix two moments: slot i
// read before the owner returned below it and slot i+1 after the owner
// pushed again (a caller with the callee of another call: an impossible
// pair), or a stale slot above a depth that dropped and came back. So the
// stack is read CopyPasses times, layout (offset, fiber chain, depths) and
// frames, and kept only if every pass read the same: a mixed copy then
// needs the owner to mix the same slots the same way in every pass.
// test/Runtime/cross-thread-read.c, a thread switching between two
// caller/callee pairs every few nanoseconds, finds such a copy in about 1
// of 1,000 samples with two passes, 1 in 130,000 with three, none in 200,000 with four. A
// stack that never reads the same in CopyPasses passes (CopyTries tries)
// has its top changing all the time; the frames below the first that
// differed (its stable prefix, the same in every pass of the last try) are
// given to the caller, whose signal handler settles the rest.
// (AArch64 does not order the owner's stores for other CPUs the same way;
// there the repeated passes are all that catch a torn copy.)
bool copyStack(const ThreadSlot &T, const FrameDescriptor **Buffer,
               StackCopy &Out) {
  uint32_t Stable = 0;
  for (int Try = 0; Try < CopyTries; ++Try) {
    intptr_t Offset = __atomic_load_n(T.OffsetVar, __ATOMIC_ACQUIRE);
    StackView First;
    uint32_t N = readPass(T, Offset, First, Buffer, 0, nullptr);
    uint32_t Prefix = N;
    bool Same = true;
    for (int Pass = 1; Pass < CopyPasses; ++Pass) {
      intptr_t Now = __atomic_load_n(T.OffsetVar, __ATOMIC_ACQUIRE);
      StackView Again;
      uint32_t Match = 0;
      uint32_t M = readPass(T, Now, Again, Buffer, N, &Match);
      if (Match < Prefix)
        Prefix = Match;
      Same = Same && Now == Offset && M == N && Match == N &&
             sameLayout(First, Again);
    }
    if (Same) {
      Out.Length = N;
      Out.Leaf = First.Leaf;
      // As stackTop: the last frame copied if it is on the stack in use.
      const StackView::Segment *Last =
          First.SegmentCount ? &First.Segments[First.SegmentCount - 1]
                             : nullptr;
      if (First.Leaf == &TruncatedFrame)
        Out.Top = &TruncatedFrame;
      else if (Last && Last->Frames == stackAt(T.OwnStack, Offset)->frames)
        Out.Top = Buffer[N - 1];
      else
        Out.Top = nullptr;
      return true;
    }
    // The frames below the first that differed read the same in every
    // pass, as a whole copy must. If none differed (only a depth or the
    // stack in use did), the top one may be a stale slot that read the
    // same each time: only the frames below it are kept.
    Stable = Prefix == N && Prefix ? Prefix - 1 : Prefix;
  }
  Out.Length = Stable;
  Out.Leaf = nullptr;
  Out.Top = nullptr;
  return false;
}

void recordSnapshotWithoutLeaf(ThreadSlot &T) {
  uint32_t Ready = ThreadSlot::SnapReady;
  if (!T.SnapState.compare_exchange_strong(Ready, ThreadSlot::SnapTaken,
                                           std::memory_order_acq_rel))
    return;
  {
    StackView S(T.SnapFrames, T.SnapLength,
                T.SnapLength ? T.SnapLeaf : &UnknownFrame);
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
