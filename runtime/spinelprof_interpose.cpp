//===- spinelprof_interpose.cpp - libc calls the profiler must see --------===//
//
// Part of spinelprof. See spinelprof_interpose.h. Every definition here
// forwards to libc's function of the same name; with hooks installed it
// also tells the profiler what the call does to the thread: a blocking call
// gets a synthetic frame (and SIGPROF blocked, so that no profiling signal
// can cut it short), a new thread is registered, a context switch switches
// shadow stacks.
//
//===----------------------------------------------------------------------===//
#undef _FORTIFY_SOURCE
#include "spinelprof_interpose.h"
#include "spinelprof_scratch.h"

#include <atomic>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

namespace spinelprof {

static std::atomic<const InterposeHooks *> Hooks;

void setInterposeHooks(const InterposeHooks *H) { Hooks.store(H); }

/// Every sanitizer runtime (sanitizer_common) defines it; null without one.
extern "C" __attribute__((weak)) void __sanitizer_print_stack_trace();

/// The definition of Name that this one stands in front of. Normal context.
///
/// A sanitizer runtime linked into the program (ASan, TSan, ...) defines
/// the same functions, weakly, so ours win, and the next definition after
/// the executable is libc's. Forwarding there would bypass the sanitizer:
/// TSan would not see threads, mutexes or condition variables, ASan would
/// not know the new thread. Their interceptors are also exported as
/// __interceptor_NAME, so that is called when it exists. Without a
/// sanitizer (the weak reference tells, no lookup) that name is not looked
/// up: a dlsym that fails mallocs its error message, and ~50 of them moved
/// the program's whole heap (test/Runtime/untouched-heap.c).
static void *lookUpReal(const char *Name) {
  void *F = nullptr;
  if (__sanitizer_print_stack_trace) {
    char Interceptor[64] = "__interceptor_";
    size_t Prefix = sizeof("__interceptor_") - 1;
    size_t N = 0;
    while (Name[N] && Prefix + N + 1 < sizeof(Interceptor)) {
      Interceptor[Prefix + N] = Name[N];
      ++N;
    }
    Interceptor[Prefix + N] = 0;
    F = dlsym(RTLD_DEFAULT, Interceptor);
  }
  if (!F)
    F = dlsym(RTLD_NEXT, Name);
  if (!F)
    abort(); // No libc function to forward to: nothing sensible to do.
  return F;
}

/// Name's real definition (lookUpReal), looked up once. Normal context.
static void *realFunction(std::atomic<void *> &Cache, const char *Name) {
  void *F = Cache.load(std::memory_order_acquire);
  if (!F) {
    F = lookUpReal(Name);
    Cache.store(F, std::memory_order_release);
  }
  return F;
}

// Every libc function defined here, each with its real definition's cache.
// clang-format off
#define SPINELPROF_REAL_FUNCTIONS(X)                                           \
  X(pthread_create) X(sigaction) X(signal) X(makecontext) X(swapcontext)       \
  X(read) X(write) X(recv) X(recvfrom) X(recvmsg) X(send) X(sendto)            \
  X(sendmsg) X(accept) X(accept4) X(connect) X(poll) X(ppoll) X(select)        \
  X(pselect) X(epoll_wait) X(epoll_pwait) X(nanosleep) X(clock_nanosleep)      \
  X(sleep) X(usleep) X(pause) X(waitpid) X(wait) X(pthread_cond_wait)          \
  X(pthread_cond_timedwait) X(pthread_join) X(sem_wait) X(fsync)               \
  X(fdatasync) X(flock) X(sigsuspend) X(sigwait) X(sigwaitinfo)                \
  X(sigtimedwait) X(msgrcv) X(msgsnd) X(semop) X(semtimedop) X(lockf)          \
  X(fcntl) X(fcntl64) X(pthread_mutex_lock) X(pthread_mutex_trylock)
// clang-format on
#define SPINELPROF_REAL_CACHE(Name) static std::atomic<void *> RealOf_##Name;
SPINELPROF_REAL_FUNCTIONS(SPINELPROF_REAL_CACHE)

#define SPINELPROF_REAL(Name)                                                  \
  reinterpret_cast<decltype(&::Name)>(realFunction(RealOf_##Name, #Name))

void resolveRealFunctions() {
  int SavedErrno = errno;
#define SPINELPROF_RESOLVE(Name) (void)SPINELPROF_REAL(Name);
  SPINELPROF_REAL_FUNCTIONS(SPINELPROF_RESOLVE)
  errno = SavedErrno;
}

/// A program linked with this file alone (no frames, so no profiler) gets
/// its lookups before its constructors too. After the profiler's start-up
/// (same priority, either order) it finds them done.
__attribute__((constructor(101))) static void resolveRealFunctionsAtStart() {
  resolveRealFunctions();
}

// Synthetic frames of the blocking calls, flagged blocking.
#define SPINELPROF_BLOCKING_FRAME(Var, Text)                                   \
  static const FrameDescriptor Var = {SPINELPROF_ABI_VERSION,                  \
                                      SPINELPROF_KIND_SYNTHETIC,               \
                                      0,                                       \
                                      SPINELPROF_FLAG_BLOCKING,                \
                                      Text,                                    \
                                      "",                                      \
                                      ""};
SPINELPROF_BLOCKING_FRAME(ReadFrame, "[blocked read]")
SPINELPROF_BLOCKING_FRAME(WriteFrame, "[blocked write]")
SPINELPROF_BLOCKING_FRAME(RecvFrame, "[blocked recv]")
SPINELPROF_BLOCKING_FRAME(SendFrame, "[blocked send]")
SPINELPROF_BLOCKING_FRAME(AcceptFrame, "[blocked accept]")
SPINELPROF_BLOCKING_FRAME(ConnectFrame, "[blocked connect]")
SPINELPROF_BLOCKING_FRAME(PollFrame, "[blocked poll]")
SPINELPROF_BLOCKING_FRAME(SelectFrame, "[blocked select]")
SPINELPROF_BLOCKING_FRAME(EpollFrame, "[blocked epoll_wait]")
SPINELPROF_BLOCKING_FRAME(SleepFrame, "[sleep]")
SPINELPROF_BLOCKING_FRAME(WaitFrame, "[blocked wait]")
SPINELPROF_BLOCKING_FRAME(CondFrame, "[blocked cond_wait]")
SPINELPROF_BLOCKING_FRAME(MutexFrame, "[blocked mutex]")
SPINELPROF_BLOCKING_FRAME(JoinFrame, "[blocked join]")
SPINELPROF_BLOCKING_FRAME(SemFrame, "[blocked sem_wait]")
SPINELPROF_BLOCKING_FRAME(FsyncFrame, "[blocked fsync]")
SPINELPROF_BLOCKING_FRAME(FlockFrame, "[blocked flock]")
SPINELPROF_BLOCKING_FRAME(PauseFrame, "[blocked pause]")
SPINELPROF_BLOCKING_FRAME(SigwaitFrame, "[blocked sigwait]")
SPINELPROF_BLOCKING_FRAME(IpcFrame, "[blocked ipc]")
SPINELPROF_BLOCKING_FRAME(LockFrame, "[blocked lock]")

/// Runs Call between enterBlocking and leaveBlocking when hooks are set.
/// errno is the call's.
template <typename Call>
static inline auto blocking(const FrameDescriptor &Frame, Call C) {
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (!H)
    return C();
  BlockingScope Scope;
  H->enterBlocking(Scope, &Frame);
  auto Result = C();
  int Err = errno;
  H->leaveBlocking(Scope);
  errno = Err;
  return Result;
}

namespace {
struct ThreadStart {
  void *(*Start)(void *);
  void *Arg;
};
} // namespace

/// Start records of threads being created: a fixed pool, then mmap, never
/// malloc, so that a profiled program's heap is an unprofiled run's after
/// its threads start too (a 16-byte record moved every later object).
static constexpr unsigned StartPoolSize = 64;
static ThreadStart StartPool[StartPoolSize];
static std::atomic<bool> StartPoolTaken[StartPoolSize];

static ThreadStart *takeThreadStart() {
  for (unsigned I = 0; I < StartPoolSize; ++I)
    if (!StartPoolTaken[I].load(std::memory_order_relaxed) &&
        !StartPoolTaken[I].exchange(true, std::memory_order_acquire))
      return &StartPool[I];
  return static_cast<ThreadStart *>(scratchAlloc(sizeof(ThreadStart)));
}

static void releaseThreadStart(ThreadStart *S) {
  if (S >= StartPool && S < StartPool + StartPoolSize)
    StartPoolTaken[S - StartPool].store(false, std::memory_order_release);
  else
    scratchFree(S);
}

static void *threadTrampoline(void *P) {
  ThreadStart S = *static_cast<ThreadStart *>(P);
  releaseThreadStart(static_cast<ThreadStart *>(P));
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (H)
    H->threadStarted();
  void *Result = S.Start(S.Arg);
  // pthread_exit and cancellation skip this; the registry's thread-key
  // destructor covers them.
  if ((H = Hooks.load(std::memory_order_acquire)))
    H->threadFinished();
  return Result;
}

int realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                      void *(*Start)(void *), void *Arg) {
  return SPINELPROF_REAL(pthread_create)(Thread, Attr, Start, Arg);
}

/// The first code of a fiber made by makecontext: its record arrives as
/// two ints (makecontext passes ints only).
static void fiberTrampoline(unsigned Hi, unsigned Lo) {
  auto *S = reinterpret_cast<FiberStart *>(uintptr_t(Hi) << 32 | Lo);
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (H)
    H->fiberEntered(*S);
  const int *A = S->Args;
  switch (S->Argc) {
  case 0: S->Body(); break;
  case 1: reinterpret_cast<void (*)(int)>(S->Body)(A[0]); break;
  case 2: reinterpret_cast<void (*)(int, int)>(S->Body)(A[0], A[1]); break;
  case 3:
    reinterpret_cast<void (*)(int, int, int)>(S->Body)(A[0], A[1], A[2]);
    break;
  case 4:
    reinterpret_cast<void (*)(int, int, int, int)>(S->Body)(A[0], A[1], A[2],
                                                           A[3]);
    break;
  case 5:
    reinterpret_cast<void (*)(int, int, int, int, int)>(S->Body)(
        A[0], A[1], A[2], A[3], A[4]);
    break;
  default:
    reinterpret_cast<void (*)(int, int, int, int, int, int)>(S->Body)(
        A[0], A[1], A[2], A[3], A[4], A[5]);
    break;
  }
  if (H)
    H->fiberReturned(*S);
  // Returning resumes uc_link, as the body's return would have.
}

bool installOverDefault(int Signal, const struct sigaction &Action) {
  struct sigaction Old;
  if (sigaction(Signal, nullptr, &Old) != 0)
    return false;
  if ((Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
    return false;
  return sigaction(Signal, &Action, nullptr) == 0;
}

} // namespace spinelprof

using namespace spinelprof;

// Default visibility: shared libraries that call these through the PLT
// reach them too when the executable exports them.
#define SPINELPROF_INTERPOSE extern "C" __attribute__((visibility("default")))

/// A handler the program installs for the profiling signal takes it over:
/// sampling stops first, so the program sees only its own signals.
SPINELPROF_INTERPOSE int sigaction(int Signal, const struct sigaction *Action,
                                   struct sigaction *Old) noexcept {
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (H && Action && Signal == H->Signal)
    H->signalTakenOver();
  return SPINELPROF_REAL(sigaction)(Signal, Action, Old);
}

SPINELPROF_INTERPOSE sighandler_t signal(int Signal,
                                         sighandler_t Handler) noexcept {
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (H && Signal == H->Signal)
    H->signalTakenOver();
  return SPINELPROF_REAL(signal)(Signal, Handler);
}

SPINELPROF_INTERPOSE int pthread_create(pthread_t *Thread,
                                        const pthread_attr_t *Attr,
                                        void *(*Start)(void *),
                                        void *Arg) noexcept {
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (!H)
    return realPthreadCreate(Thread, Attr, Start, Arg);
  ThreadStart *S = takeThreadStart();
  if (!S)
    return realPthreadCreate(Thread, Attr, Start, Arg);
  *S = {Start, Arg};
  int Err = realPthreadCreate(Thread, Attr, threadTrampoline, S);
  if (Err)
    releaseThreadStart(S);
  return Err;
}

SPINELPROF_INTERPOSE void makecontext(ucontext_t *Context, void (*Body)(),
                                      int Argc, ...) noexcept {
  FiberStart Start;
  Start.Body = Body;
  Start.Argc = Argc < 0 ? 0 : Argc > 6 ? 6 : Argc;
  Start.Fiber = nullptr;
  va_list Args;
  va_start(Args, Argc);
  for (int I = 0; I < 6; ++I)
    Start.Args[I] = I < Start.Argc ? va_arg(Args, int) : 0;
  va_end(Args);
  auto Real = SPINELPROF_REAL(makecontext);
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  // More than six arguments is beyond what the trampoline forwards: such a
  // fiber runs untracked (on its resumer's shadow stack).
  if (H && Argc <= 6 && H->fiberCreated(Start)) {
    auto *Record = static_cast<FiberStart *>(Start.Fiber);
    uintptr_t P = reinterpret_cast<uintptr_t>(Record);
    Real(Context, reinterpret_cast<void (*)()>(fiberTrampoline), 2,
         unsigned(P >> 32), unsigned(P & 0xffffffffu));
    return;
  }
  const int *A = Start.Args;
  Real(Context, Body, Start.Argc, A[0], A[1], A[2], A[3], A[4], A[5]);
}

SPINELPROF_INTERPOSE int swapcontext(ucontext_t *From,
                                     const ucontext_t *To) noexcept {
  auto Real = SPINELPROF_REAL(swapcontext);
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (!H)
    return Real(From, To);
  void *Saved = H->beforeSwitch();
  int Result = Real(From, To);
  int Err = errno;
  // Back in From's context (on this thread): its stack is in use again.
  H->afterSwitch(Saved);
  errno = Err;
  return Result;
}

// setcontext needs no wrapper: it does not return, and the context it
// resumes restores its own stack (a swapcontext wrapper or a fiber's
// trampoline).

// Copy: room for a signal mask the call installs while it waits
// (withProfSignal).
#define SPINELPROF_BLOCKING(Ret, Name, Params, Args, Frame, Spec)              \
  SPINELPROF_INTERPOSE Ret Name Params Spec {                                  \
    auto Real = SPINELPROF_REAL(Name);                                         \
    sigset_t Copy;                                                             \
    (void)Copy;                                                                \
    return blocking(Frame, [&] { return Real Args; });                         \
  }

/// A call that installs its own signal mask while it waits (ppoll, pselect,
/// epoll_pwait, sigsuspend) would unblock the profiling signal, which
/// would end the wait early: Mask with that signal added, in Copy (null
/// stays null: the mask blocking() set stays).
static const sigset_t *withProfSignal(const sigset_t *Mask, sigset_t &Copy) {
  const InterposeHooks *H = Hooks.load(std::memory_order_acquire);
  if (!Mask || !H)
    return Mask;
  Copy = *Mask;
  sigaddset(&Copy, H->Signal);
  return &Copy;
}

SPINELPROF_BLOCKING(ssize_t, read, (int Fd, void *Buf, size_t N),
                    (Fd, Buf, N), ReadFrame, )
SPINELPROF_BLOCKING(ssize_t, write, (int Fd, const void *Buf, size_t N),
                    (Fd, Buf, N), WriteFrame, )
SPINELPROF_BLOCKING(ssize_t, recv, (int Fd, void *Buf, size_t N, int Flags),
                    (Fd, Buf, N, Flags), RecvFrame, )
SPINELPROF_BLOCKING(ssize_t, recvfrom,
                    (int Fd, void *Buf, size_t N, int Flags,
                     struct sockaddr *Addr, socklen_t *Len),
                    (Fd, Buf, N, Flags, Addr, Len), RecvFrame, )
SPINELPROF_BLOCKING(ssize_t, recvmsg, (int Fd, struct msghdr *M, int Flags),
                    (Fd, M, Flags), RecvFrame, )
SPINELPROF_BLOCKING(ssize_t, send,
                    (int Fd, const void *Buf, size_t N, int Flags),
                    (Fd, Buf, N, Flags), SendFrame, )
SPINELPROF_BLOCKING(ssize_t, sendto,
                    (int Fd, const void *Buf, size_t N, int Flags,
                     const struct sockaddr *Addr, socklen_t Len),
                    (Fd, Buf, N, Flags, Addr, Len), SendFrame, )
SPINELPROF_BLOCKING(ssize_t, sendmsg,
                    (int Fd, const struct msghdr *M, int Flags),
                    (Fd, M, Flags), SendFrame, )
SPINELPROF_BLOCKING(int, accept,
                    (int Fd, struct sockaddr *Addr, socklen_t *Len),
                    (Fd, Addr, Len), AcceptFrame, )
SPINELPROF_BLOCKING(int, accept4,
                    (int Fd, struct sockaddr *Addr, socklen_t *Len, int Flags),
                    (Fd, Addr, Len, Flags), AcceptFrame, )
SPINELPROF_BLOCKING(int, connect,
                    (int Fd, const struct sockaddr *Addr, socklen_t Len),
                    (Fd, Addr, Len), ConnectFrame, )
SPINELPROF_BLOCKING(int, poll, (struct pollfd * Fds, nfds_t N, int Timeout),
                    (Fds, N, Timeout), PollFrame, )
SPINELPROF_BLOCKING(int, ppoll,
                    (struct pollfd * Fds, nfds_t N, const struct timespec *T,
                     const sigset_t *Mask),
                    (Fds, N, T, withProfSignal(Mask, Copy)), PollFrame, )
SPINELPROF_BLOCKING(int, select,
                    (int N, fd_set *R, fd_set *W, fd_set *E,
                     struct timeval *T),
                    (N, R, W, E, T), SelectFrame, )
SPINELPROF_BLOCKING(int, pselect,
                    (int N, fd_set *R, fd_set *W, fd_set *E,
                     const struct timespec *T, const sigset_t *Mask),
                    (N, R, W, E, T, withProfSignal(Mask, Copy)),
                    SelectFrame, )
SPINELPROF_BLOCKING(int, epoll_wait,
                    (int Fd, struct epoll_event *Events, int Max, int Timeout),
                    (Fd, Events, Max, Timeout), EpollFrame, )
SPINELPROF_BLOCKING(int, epoll_pwait,
                    (int Fd, struct epoll_event *Events, int Max, int Timeout,
                     const sigset_t *Mask),
                    (Fd, Events, Max, Timeout, withProfSignal(Mask, Copy)),
                    EpollFrame, )
SPINELPROF_BLOCKING(int, nanosleep,
                    (const struct timespec *T, struct timespec *Rem), (T, Rem),
                    SleepFrame, )
SPINELPROF_BLOCKING(int, clock_nanosleep,
                    (clockid_t Clock, int Flags, const struct timespec *T,
                     struct timespec *Rem),
                    (Clock, Flags, T, Rem), SleepFrame, )
SPINELPROF_BLOCKING(unsigned, sleep, (unsigned Seconds), (Seconds), SleepFrame,
                    )
SPINELPROF_BLOCKING(int, usleep, (useconds_t Usec), (Usec), SleepFrame, )
SPINELPROF_BLOCKING(int, pause, (void), (), PauseFrame, )
SPINELPROF_BLOCKING(pid_t, waitpid, (pid_t Pid, int *Status, int Options),
                    (Pid, Status, Options), WaitFrame, )
SPINELPROF_BLOCKING(pid_t, wait, (int *Status), (Status), WaitFrame, )
SPINELPROF_BLOCKING(int, pthread_cond_wait,
                    (pthread_cond_t * C, pthread_mutex_t *M), (C, M),
                    CondFrame, )
SPINELPROF_BLOCKING(int, pthread_cond_timedwait,
                    (pthread_cond_t * C, pthread_mutex_t *M,
                     const struct timespec *T),
                    (C, M, T), CondFrame, )
SPINELPROF_BLOCKING(int, pthread_join, (pthread_t T, void **Result),
                    (T, Result), JoinFrame, )
SPINELPROF_BLOCKING(int, sem_wait, (sem_t * S), (S), SemFrame, )
SPINELPROF_BLOCKING(int, fsync, (int Fd), (Fd), FsyncFrame, )
SPINELPROF_BLOCKING(int, fdatasync, (int Fd), (Fd), FsyncFrame, )
SPINELPROF_BLOCKING(int, flock, (int Fd, int Op), (Fd, Op), FlockFrame,
                    noexcept)
// Calls a signal handler ends with EINTR whatever SA_RESTART says
// (signal(7)): a profiling signal sent while the thread still ran, just
// before it began to wait, arrives up to 250 us later in this VM.
SPINELPROF_BLOCKING(int, sigsuspend, (const sigset_t *Mask),
                    (withProfSignal(Mask, Copy)), SigwaitFrame, )
SPINELPROF_BLOCKING(int, sigwait, (const sigset_t *Set, int *Signal),
                    (Set, Signal), SigwaitFrame, )
SPINELPROF_BLOCKING(int, sigwaitinfo, (const sigset_t *Set, siginfo_t *Info),
                    (Set, Info), SigwaitFrame, )
SPINELPROF_BLOCKING(int, sigtimedwait,
                    (const sigset_t *Set, siginfo_t *Info,
                     const struct timespec *T),
                    (Set, Info, T), SigwaitFrame, )
SPINELPROF_BLOCKING(ssize_t, msgrcv,
                    (int Id, void *Msg, size_t Size, long Type, int Flags),
                    (Id, Msg, Size, Type, Flags), IpcFrame, )
SPINELPROF_BLOCKING(int, msgsnd,
                    (int Id, const void *Msg, size_t Size, int Flags),
                    (Id, Msg, Size, Flags), IpcFrame, )
SPINELPROF_BLOCKING(int, semop, (int Id, struct sembuf *Ops, size_t N),
                    (Id, Ops, N), IpcFrame, noexcept)
SPINELPROF_BLOCKING(int, semtimedop,
                    (int Id, struct sembuf *Ops, size_t N,
                     const struct timespec *T),
                    (Id, Ops, N, T), IpcFrame, noexcept)
SPINELPROF_BLOCKING(int, lockf, (int Fd, int Cmd, off_t Len), (Fd, Cmd, Len),
                    LockFrame, )

/// fcntl's waiting lock commands, as a blocking call; the others as they
/// are. Its one optional argument is an int or a pointer, passed the same
/// way on the ABIs this runs on.
template <typename Real>
static int waitingFcntl(Real R, int Fd, int Cmd, void *Arg) {
  if (Cmd == F_SETLKW || Cmd == F_OFD_SETLKW)
    return blocking(LockFrame, [&] { return R(Fd, Cmd, Arg); });
  return R(Fd, Cmd, Arg);
}

// fcntl64: what fcntl is called under with _FILE_OFFSET_BITS=64 on
// 32-bit systems, and an alias of it on 64-bit ones.
#define SPINELPROF_FCNTL(Name)                                                 \
  SPINELPROF_INTERPOSE int Name(int Fd, int Cmd, ...) {                        \
    va_list Args;                                                              \
    va_start(Args, Cmd);                                                       \
    void *Arg = va_arg(Args, void *);                                          \
    va_end(Args);                                                              \
    return waitingFcntl(SPINELPROF_REAL(Name), Fd, Cmd, Arg);                  \
  }
SPINELPROF_FCNTL(fcntl)
SPINELPROF_FCNTL(fcntl64)

// A mutex that is free is taken without the frame or the signal mask.
SPINELPROF_INTERPOSE int pthread_mutex_lock(pthread_mutex_t *M) noexcept {
  auto Try = SPINELPROF_REAL(pthread_mutex_trylock);
  auto Real = SPINELPROF_REAL(pthread_mutex_lock);
  if (!Hooks.load(std::memory_order_acquire))
    return Real(M);
  int R = Try(M);
  if (R != EBUSY)
    return R;
  return blocking(MutexFrame, [&] { return Real(M); });
}
