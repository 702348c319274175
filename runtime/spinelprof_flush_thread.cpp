//===- spinelprof_flush_thread.cpp - The periodic flush's helper thread ---===//
//
// Part of spinelprof. See spinelprof_flush_thread.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_flush_thread.h"

#include "spinelprof_clock.h"
#include "spinelprof_interpose.h"

#include <atomic>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {

static int FlushSec;
static void (*Flush)();
static std::atomic<bool> Runs;
static std::atomic<bool> StopRequested;
/// Bumped (and futex-woken) to wake the thread before its time.
static std::atomic<uint32_t> WakeWord;
// Work handed to the thread (runOnFlushThread).
static std::atomic<void (*)(int)> PendingWork;
static std::atomic<int> PendingArg;
static std::atomic<uint32_t> WorkDone;

/// Wakes the thread now. Async-signal-safe.
static void wakeFlushThread() {
  WakeWord.fetch_add(1);
  syscall(SYS_futex, &WakeWord, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1);
}

/// Every 10 ms: work handed over (runOnFlushThread), and every FlushSec
/// seconds the flush, until stopped.
static void *flushMain(void *) {
  (void)prctl(PR_SET_NAME, "spinelprof", 0, 0, 0);
  uint64_t FlushNs = uint64_t(FlushSec) * 1000000000u;
  uint64_t NextFlush = monotonicNs() + FlushNs;
  while (!StopRequested.load()) {
    uint32_t Seen = WakeWord.load();
    struct timespec Pause = {0, 10000000};
    syscall(SYS_futex, &WakeWord, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, Seen,
            &Pause);
    if (StopRequested.load())
      break;
    if (void (*Work)(int) = PendingWork.exchange(nullptr)) {
      Work(PendingArg.load());
      WorkDone.fetch_add(1);
    }
    uint64_t Now = monotonicNs();
    if (Now >= NextFlush && Flush) {
      Flush();
      NextFlush = Now + FlushNs;
    }
  }
  return nullptr;
}

/// Starts the thread (all signals blocked, detached, never registered or
/// sampled: libc's pthread_create, not the archive's). Returns 0 or an
/// errno. Normal context.
static int startThread() {
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&Attr, 256 * 1024);
  pthread_t Thread;
  int Err = realPthreadCreate(&Thread, &Attr, flushMain, nullptr);
  pthread_attr_destroy(&Attr);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  Runs.store(Err == 0);
  return Err;
}

int startFlushThread(int Seconds, void (*FlushFn)()) {
  FlushSec = Seconds;
  Flush = FlushFn;
  return startThread();
}

bool flushThreadRuns() { return Runs.load(); }

bool runOnFlushThread(void (*Work)(int), int Arg, int TimeoutMs) {
  if (StopRequested.load() || !Runs.load())
    return false;
  uint32_t Before = WorkDone.load();
  PendingArg.store(Arg);
  PendingWork.store(Work);
  wakeFlushThread();
  for (int Tenths = 0; Tenths < TimeoutMs * 10; ++Tenths) {
    if (WorkDone.load() != Before)
      return true;
    struct timespec Pause = {0, 100000};
    syscall(SYS_nanosleep, &Pause, nullptr);
  }
  return false;
}

void stopFlushThread() {
  StopRequested.store(true);
  wakeFlushThread();
}

void restartFlushThreadAfterFork(bool Start) {
  PendingWork.store(nullptr);
  if (Runs.exchange(false) && Start && !StopRequested.load())
    (void)startThread();
}

} // namespace spinelprof
