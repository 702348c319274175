//===- spinelprof_crash.cpp - A profile that survives a crash -------------===//
//
// Part of spinelprof. See spinelprof_crash.h and docs/design.md ("A crash").
//
// One crash is written, by whichever thread faults first; a thread that
// faults while it is being written waits for it (bounded) and then dies of
// its own fault. The handler blocks every signal while it runs, so a
// fault in the handler itself (or a second one on the same thread) finds
// its signal blocked, and the kernel ends the process with it at once: no
// loop, no hang. The profile is written by a copy of the process
// (writeInCopy, spinelprof_init.cpp), which takes the crash signals'
// default actions and dumps no core: a fault there ends the copy, and the
// program then dies of its own signal, with the copy's temporary files
// removed.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_crash.h"

#include "spinelprof_interpose.h"

#include <atomic>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {

namespace {

const int CrashSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

/// Room for the copy of the process that writes the profile: it runs on
/// the copy of this stack (writeFinalProfile and the writer keep their
/// buffers in mmap'd memory, but printMessage and the formatting take a
/// few KiB). Mapped with MAP_NORESERVE: pages cost memory only once used,
/// i.e. after a crash. A guard page below catches an overflow of it.
constexpr size_t AltStackSize = 256 * 1024;

/// The room the handler needs below its frame to have the profile
/// written: the copy of the process runs the writer on a copy of this
/// stack (measured: about 16 KiB). On a smaller alternate stack of the
/// program's own it writes nothing: an overflow there would run into
/// whatever memory lies below it (a 4 KiB one from malloc: the heap).
constexpr size_t MinRoom = 32 * 1024;

/// Alternate stacks of threads that unregistered, for the next threads to
/// register (a program that starts and joins thousands of threads maps
/// only as many as run at once). A slot holds a mapping's base, or null;
/// taking is an exchange and giving a compare-exchange, so no lock (a fork
/// child inherits no held lock).
constexpr int PoolSize = 64;
std::atomic<void *> Pool[PoolSize];

/// Which crash handling runs: Idle (none yet), Writing (one thread has its
/// profile written), Done.
enum : int { Idle = 0, Writing = 1, Done = 2 };
std::atomic<int> Phase{Idle};

/// Set at start-up (and, for OwnerPid, in a fork child); read by handlers.
bool Installed;      // At least one crash handler is the profiler's.
CrashWriter Writer;
int OwnerPid;        // The process whose profile a crash writes.
size_t GuardSize;    // One page.
/// SPINEL_PROFILE_TEST_CRASH_WRITE: 0 off, 1 fault, 2 hang.
int TestWrite;
/// In the copy that writes the profile for a signal (crashCopyStarted).
volatile bool InCopy;

/// A null pointer the compiler cannot see is null: writing through it is a
/// plain SIGSEGV, not a trap instruction.
int *volatile NullForTest = nullptr;

#define SPINELPROF_TLS __thread __attribute__((tls_model("initial-exec")))
SPINELPROF_TLS void *MyAltStack; // The mapping's base (guard page first).

} // namespace

// The sanitizers that handle the crash signals themselves, each its
// runtime's entry point; null without it.
extern "C" __attribute__((weak)) void __asan_init();
extern "C" __attribute__((weak)) void __tsan_init();
extern "C" __attribute__((weak)) void __msan_init();
extern "C" __attribute__((weak)) void __hwasan_init();

/// Whether a sanitizer that handles the crash signals itself runs: ASan,
/// TSan, MSan or HWASan report a fault and decide how the process ends
/// (and run their own alternate stacks). Weak references tell, not dlsym:
/// a lookup that fails mallocs its error message in the program's heap
/// (test/Runtime/untouched-heap.c). Start-up only.
static bool sanitizerOwnsCrashSignals() {
  return __asan_init || __tsan_init || __msan_init || __hwasan_init;
}

/// Signal's default action from now on. Async-signal-safe.
static void takeDefaultAction(int Signal) {
  struct sigaction Default;
  memset(&Default, 0, sizeof(Default));
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Signal, &Default, nullptr);
}

/// Sends Signal to the calling thread, unblocked, with its default action
/// in place: the process ends of it here. Async-signal-safe.
static void raiseAgain(int Signal) {
  sigset_t Unblock;
  sigemptyset(&Unblock);
  sigaddset(&Unblock, Signal);
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &Unblock, nullptr, 8);
  syscall(SYS_tgkill, syscall(SYS_getpid), syscall(SYS_gettid), Signal);
}

/// Sleeps about a millisecond. Async-signal-safe.
static void pauseMs() {
  struct timespec Pause = {0, 1000000};
  syscall(SYS_nanosleep, &Pause, nullptr);
}

/// CLOCK_MONOTONIC in ms. Async-signal-safe.
static int64_t monotonicMs() {
  struct timespec Now = {0, 0};
  clock_gettime(CLOCK_MONOTONIC, &Now);
  return int64_t(Now.tv_sec) * 1000 + Now.tv_nsec / 1000000;
}

/// Whether the handler has MinRoom below its frame: on the thread's own
/// stack (no alternate stack in use) it has what the program's code had;
/// on an alternate stack, the part of it below the frame. Async-signal-safe.
static bool roomToWrite() {
  stack_t Alt;
  if (syscall(SYS_sigaltstack, nullptr, &Alt) != 0 || !(Alt.ss_flags & SS_ONSTACK))
    return true;
  uintptr_t Here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t Low = reinterpret_cast<uintptr_t>(Alt.ss_sp);
  return Here > Low && Here - Low >= MinRoom;
}

/// A fault is the kernel's (si_code > 0) and repeats when the handler
/// returns to the faulting instruction; abort() and a signal sent by kill
/// or raise do not. Async-signal-safe.
static bool repeats(int Signal, const siginfo_t *Info) {
  return Signal != SIGABRT && Info && Info->si_code > 0;
}

/// The handler's body with room to write: the profile once, then the
/// program's own death. Async-signal-safe (Writer is; the rest are system
/// calls).
__attribute__((noinline)) static void handleCrashWithRoom(int Signal,
                                                          siginfo_t *Info) {
  int SavedErrno = errno;
  // A child made without fork's handlers (vfork, a raw clone) is not the
  // profiled process.
  if (syscall(SYS_getpid) == OwnerPid) {
    int Expected = Idle;
    if (Phase.compare_exchange_strong(Expected, Writing)) {
      Writer(Signal);
      Phase.store(Done);
    } else {
      // Another thread's crash is being written (it takes at most 5 s,
      // plus the wait for an exit-time write): let it finish, then die of
      // this fault. Returning at once would fault again and again.
      int64_t Deadline = monotonicMs() + 12000;
      while (Phase.load() == Writing && monotonicMs() < Deadline)
        pauseMs();
    }
  }
  takeDefaultAction(Signal);
  // A fault happens again when the handler returns, now with the default
  // action: the process dies of it there, with the exit status and core
  // dump it would have had. Anything else is sent again.
  if (!repeats(Signal, Info))
    raiseAgain(Signal);
  errno = SavedErrno;
}

/// The crash handler. On a program's own alternate stack too small for
/// the writer (a handler there would run into the memory below it), it
/// only puts the default action back, in as little stack as it can (the
/// kernel's signal frame alone takes a few KiB), and says so. Runs with
/// every signal blocked. Async-signal-safe.
static void handleCrash(int Signal, siginfo_t *Info, void *) {
  if (roomToWrite()) {
    handleCrashWithRoom(Signal, Info);
    return;
  }
  struct { // The kernel's struct sigaction: SIG_DFL, no flags, no mask.
    void *Handler;
    unsigned long Flags;
    void *Restorer;
    uint64_t Mask;
  } Default = {nullptr, 0, nullptr, 0};
  syscall(SYS_rt_sigaction, Signal, &Default, nullptr, sizeof(Default.Mask));
  static const char NoRoom[] = "spinelprof: no profile after the crash: the "
                               "program's alternate signal stack is too small "
                               "to write it\n";
  syscall(SYS_write, STDERR_FILENO, NoRoom, sizeof(NoRoom) - 1);
  if (!repeats(Signal, Info))
    raiseAgain(Signal);
}

/// A mapping for an alternate stack (guard page, then AltStackSize), from
/// the pool or new; null on failure. Normal context.
static void *takeAltStack() {
  for (std::atomic<void *> &Slot : Pool)
    if (Slot.load(std::memory_order_relaxed))
      if (void *Base = Slot.exchange(nullptr, std::memory_order_acquire))
        return Base;
  void *Base = mmap(nullptr, GuardSize + AltStackSize, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                    -1, 0);
  if (Base == MAP_FAILED)
    return nullptr;
  if (mprotect(Base, GuardSize, PROT_NONE) != 0) {
    munmap(Base, GuardSize + AltStackSize);
    return nullptr;
  }
  return Base;
}

/// Gives a mapping from takeAltStack back to the pool, or unmaps it when
/// the pool is full. Normal context.
static void giveBackAltStack(void *Base) {
  for (std::atomic<void *> &Slot : Pool) {
    void *Empty = nullptr;
    if (Slot.compare_exchange_strong(Empty, Base, std::memory_order_release))
      return;
  }
  munmap(Base, GuardSize + AltStackSize);
}

void crashThreadStarted() {
  if (!Installed || MyAltStack)
    return;
  stack_t Current;
  // The program's own alternate stack (or one a library set) stays.
  if (sigaltstack(nullptr, &Current) != 0 || !(Current.ss_flags & SS_DISABLE))
    return;
  void *Base = takeAltStack();
  if (!Base)
    return; // The thread runs without: only a stack overflow goes unseen.
  stack_t Alt;
  Alt.ss_sp = static_cast<char *>(Base) + GuardSize;
  Alt.ss_flags = 0;
  Alt.ss_size = AltStackSize;
  if (sigaltstack(&Alt, nullptr) != 0) {
    giveBackAltStack(Base);
    return;
  }
  MyAltStack = Base;
}

void crashThreadFinished() {
  void *Base = MyAltStack;
  if (!Base)
    return;
  stack_t Current;
  if (sigaltstack(nullptr, &Current) != 0)
    return; // Cannot tell whether it is in use: keep it.
  if (Current.ss_sp == static_cast<char *>(Base) + GuardSize) {
    if (Current.ss_flags & SS_ONSTACK)
      return; // Running on it (a handler that unregisters): keep it.
    stack_t Off;
    memset(&Off, 0, sizeof(Off));
    Off.ss_flags = SS_DISABLE;
    if (sigaltstack(&Off, nullptr) != 0)
      return;
  }
  // Disabled now, or the program replaced it with its own long ago.
  MyAltStack = nullptr;
  giveBackAltStack(Base);
}

/// In a fork child: its own crashes write its own profile. Normal context.
static void crashAtForkChild() {
  OwnerPid = static_cast<int>(syscall(SYS_getpid));
  Phase.store(Idle);
}

void installCrashHandlers(CrashWriter Write) {
  if (sanitizerOwnsCrashSignals())
    return;
  long Page = sysconf(_SC_PAGESIZE);
  GuardSize = Page > 0 ? static_cast<size_t>(Page) : 4096;
  if (const char *Test = getenv("SPINEL_PROFILE_TEST_CRASH_WRITE"))
    TestWrite = strcmp(Test, "fault") == 0 ? 1 : strcmp(Test, "hang") == 0 ? 2 : 0;
  Writer = Write;
  OwnerPid = static_cast<int>(syscall(SYS_getpid));
  struct sigaction Action;
  memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = handleCrash;
  sigfillset(&Action.sa_mask);
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  for (int Signal : CrashSignals)
    if (installOverDefault(Signal, Action))
      Installed = true;
  if (!Installed)
    return;
  pthread_atfork(nullptr, nullptr, crashAtForkChild);
  crashThreadStarted();
}

void crashCopyStarted() {
  InCopy = true;
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  for (int Signal : CrashSignals)
    takeDefaultAction(Signal);
}

void crashWriteTestPoint() {
  if (!TestWrite || !InCopy || Phase.load() != Writing)
    return;
  if (TestWrite == 1)
    *NullForTest = 1;
  for (;;)
    pauseMs();
}

const char *crashSignalName(int Signal) {
  switch (Signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGILL:
    return "SIGILL";
  case SIGFPE:
    return "SIGFPE";
  case SIGABRT:
    return "SIGABRT";
  default:
    return "signal";
  }
}

} // namespace spinelprof
