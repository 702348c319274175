//===- spinelprof_threads.cpp - Registered threads and their stacks -------===//
//
// Part of spinelprof. See spinelprof_threads.h.
//
// Fibers: instrumented code pushes on the thread's one shadow stack
// (abi.h); each context keeps its frames there only while it runs. A
// swapcontext wrapper copies the running context's frames into its record
// (mmap'd, reused once a fiber's body returns) and, once it returns, copies
// them back, at the same depths, so that its suspended functions pop where
// they pushed. A fiber starts with no frames, and its record remembers the
// context that resumed it: a sample shows that context's saved frames
// below the fiber's.
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
/// A context's record: a fiber's (made by makecontext), or the thread's own
/// once a fiber ran on it. Saved holds its frames while another context
/// runs on the thread.
struct FiberStack {
  spinelprof_shadow_stack Saved;
  /// The context that resumed this fiber (its frames show below the
  /// fiber's); null for a thread's own.
  FiberStack *Resumer;
  FiberStart Start;
  FiberStack *NextFree;
};
} // namespace

static std::atomic_flag FiberLock = ATOMIC_FLAG_INIT;
static FiberStack *FreeFibers;
/// The context whose frames the thread's stack holds (null: the thread's
/// own, before any switch), the thread's own record once it has one, and
/// the context whose frames are being copied in (readers read them from
/// its record meanwhile). Written in normal context, read by the thread's
/// own signal handler.
static SPINELPROF_TLS FiberStack *Running;
static SPINELPROF_TLS FiberStack *ThreadOwn;
static SPINELPROF_TLS FiberStack *Restoring;

static void lockFibers() {
  while (FiberLock.test_and_set(std::memory_order_acquire))
    sched_yield();
}
static void unlockFibers() { FiberLock.clear(std::memory_order_release); }

static FiberStack *takeRecord() {
  lockFibers();
  FiberStack *F = FreeFibers;
  if (F)
    FreeFibers = F->NextFree;
  unlockFibers();
  if (!F) {
    void *P = mmap(nullptr, sizeof(FiberStack), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      return nullptr;
    F = static_cast<FiberStack *>(P);
  }
  F->Saved.depth = 0;
  F->Resumer = nullptr;
  return F;
}

static void giveBackRecord(FiberStack *F) {
  lockFibers();
  F->NextFree = FreeFibers;
  FreeFibers = F;
  unlockFibers();
}

static uint32_t framesHeld(uint32_t Depth) {
  return Depth < SPINELPROF_STACK_CAPACITY ? Depth : SPINELPROF_STACK_CAPACITY;
}

/// Copies the thread's stack into C's record (C is suspending).
static void saveFrames(FiberStack &C) {
  uint32_t D = __spinelprof_stack.depth;
  memcpy(C.Saved.frames, __spinelprof_stack.frames,
         framesHeld(D) * sizeof(C.Saved.frames[0]));
  C.Saved.depth = D;
}

/// Whether S is Target or resumed (transitively) by Target. Bounded: a
/// record given back and reused can leave a stale link.
static bool resumedBy(const FiberStack *S, const FiberStack *Target) {
  for (int Level = 0; S && Level < 64; ++Level, S = S->Resumer)
    if (S == Target)
      return true;
  return false;
}

/// Makes C the running context: links it to the context that resumes it
/// (unless that one is above it, a yield) and copies its frames into the
/// thread's stack, where its code pushes and pops them at the same depths
/// as before it was suspended. A signal meanwhile reads C's record.
static void becomeRunning(FiberStack &C) {
  FiberStack *Previous = Running;
  if (&C != ThreadOwn && Previous && !resumedBy(Previous, &C))
    C.Resumer = Previous;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&Restoring, &C, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&Running, &C, __ATOMIC_RELAXED);
  memcpy(__spinelprof_stack.frames, C.Saved.frames,
         framesHeld(C.Saved.depth) * sizeof(C.Saved.frames[0]));
  __atomic_store_n(&__spinelprof_stack.depth, C.Saved.depth, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&Restoring, nullptr, __ATOMIC_RELAXED);
}

static bool fiberCreated(FiberStart &Start) {
  FiberStack *F = takeRecord();
  if (!F)
    return false;
  F->Start = Start;
  F->Start.Fiber = &F->Start;
  Start.Fiber = &F->Start;
  return true;
}

static FiberStack *fiberOf(FiberStart &Start) {
  return reinterpret_cast<FiberStack *>(reinterpret_cast<char *>(&Start) -
                                        offsetof(FiberStack, Start));
}

static void fiberEntered(FiberStart &Start) { becomeRunning(*fiberOf(Start)); }

static void fiberReturned(FiberStart &Start) {
  FiberStack *F = fiberOf(Start);
  // The body returned: uc_link's context runs next, usually the resumer,
  // whose swapcontext wrapper then finds its frames in place.
  if (FiberStack *Back = F->Resumer ? F->Resumer : ThreadOwn)
    becomeRunning(*Back);
  else
    __atomic_store_n(&Running, nullptr, __ATOMIC_RELAXED);
  giveBackRecord(F);
}

/// Before swapcontext: the running context's record, with its frames.
static void *beforeSwitch() {
  FiberStack *C = Running;
  if (!C) {
    if (!ThreadOwn)
      ThreadOwn = takeRecord();
    C = ThreadOwn;
    if (!C)
      return nullptr; // Its frames are not kept: the thread's stack is.
    __atomic_store_n(&Running, C, __ATOMIC_RELAXED);
  }
  saveFrames(*C);
  return C;
}

/// When swapcontext returns: the context that called it runs again.
static void afterSwitch(void *Saved) {
  auto *C = static_cast<FiberStack *>(Saved);
  if (C && C != Running)
    becomeRunning(*C);
}

static void threadOwnRecordFree() {
  if (FiberStack *Own = ThreadOwn) {
    __atomic_store_n(&Running, nullptr, __ATOMIC_RELAXED);
    ThreadOwn = nullptr;
    giveBackRecord(Own);
  }
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
  spinelprof_shadow_stack *S = &__spinelprof_stack;
  uint32_t D = S->depth;
  // A push as abi.h says: slot, then depth.
  __atomic_store_n(
      &S->frames[D < SPINELPROF_STACK_CAPACITY ? D : SPINELPROF_STACK_CAPACITY],
      Frame, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_release);
  __atomic_store_n(&S->depth, D + 1, __ATOMIC_RELEASE);
  Scope.SavedDepth = D;
  Scope.Thread = MySlot;
}

static void leaveBlocking(BlockingScope &Scope) {
  // Still blocked: the handler cannot run while the call is accounted.
  if (auto *T = static_cast<ThreadSlot *>(Scope.Thread))
    blockingCallReturns(*T, Scope.StartNs, Scope.StartCpuNs);
  __atomic_store_n(&__spinelprof_stack.depth, Scope.SavedDepth,
                   __ATOMIC_RELEASE);
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
  T.LastReadNs = T.LastWallNs;
  T.LastReadCpuNs = T.StartCpuNs;
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
  threadOwnRecordFree();
  (void)pthread_setspecific(ExitKey, nullptr);
  MySlot = nullptr; // A signal still on its way finds no slot: a no-op.
  stopThreadTimer(*S);
  if (S->Named.load())
    noteFinalCpu(*S); // Its CPU to the end: what its samples stand for.
  refreshThreadName(*S);
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

void viewStack(StackView &S) {
  // The running context's frames: in the thread's stack, or in its record
  // while they are copied in. Below them the contexts that resumed it.
  const FiberStack *Copying = __atomic_load_n(&Restoring, __ATOMIC_RELAXED);
  const FiberStack *Top =
      Copying ? Copying : __atomic_load_n(&Running, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_acquire);
  const spinelprof_shadow_stack *Chain[(StackView::MaxSegments + 1) / 2];
  uint32_t Levels = 0;
  Chain[Levels++] = Copying ? &Copying->Saved : &__spinelprof_stack;
  for (const FiberStack *C = Top ? Top->Resumer : nullptr;
       C && Levels < sizeof(Chain) / sizeof(Chain[0]); C = C->Resumer)
    Chain[Levels++] = &C->Saved;
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

/// T's thread's name now: "main" for the process's first thread, else
/// what the program set (prctl on the thread itself; another thread's from
/// /proc/self/task/TID/comm), or "" when it cannot be read.
/// Async-signal-safe (prctl, open, read, close).
static void currentThreadName(const ThreadSlot &T, char (&Name)[16]) {
  memcpy(Name, "main", 5);
  if (T.Tid == static_cast<uint32_t>(getpid()))
    return;
  Name[0] = '\0';
  if (T.Tid == static_cast<uint32_t>(gettid())) {
    (void)prctl(PR_GET_NAME, Name, 0, 0, 0);
    Name[15] = '\0';
    return;
  }
  char Path[40] = "/proc/self/task/", Digits[10];
  size_t Len = strlen(Path), N = 0;
  for (uint32_t Tid = T.Tid; Tid; Tid /= 10)
    Digits[N++] = char('0' + Tid % 10);
  while (N)
    Path[Len++] = Digits[--N];
  memcpy(Path + Len, "/comm", 6);
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return;
  ssize_t Got = read(Fd, Name, 15);
  close(Fd);
  Name[Got > 0 ? Got : 0] = '\0';
  if (Got > 0 && Name[Got - 1] == '\n')
    Name[Got - 1] = '\0';
}

void nameThread(ThreadSlot &T) {
  if (T.Named.load(std::memory_order_relaxed) ||
      T.Named.exchange(1, std::memory_order_relaxed))
    return;
  char Name[16];
  currentThreadName(T, Name);
  T.Record = registerThread(T.Tid, Name);
}

void refreshThreadName(ThreadSlot &T) {
  if (!T.Named.load() || !T.Record)
    return;
  char Name[16];
  currentThreadName(T, Name);
  if (Name[0]) // Else the name of its first sample stays.
    renameThread(T.Record, Name);
}

} // namespace spinelprof
