//===- spinelprof/output.h - Where profile files go, and how -----*- C++ -*-===//
//
// The one implementation of docs/formats.md, "Output paths": the names
// derived from SPINEL_PROFILE and from spinel-prof's -o (the .sprof, the
// allocation profile, a fork child's file, the temporary file), what an
// output path's final target is, and how each kind of target is written.
// Shared by the runtime (start-up, fork children, the writer, the SIGINT
// copy's clean-up) and by spinel-prof (-o, run, the readers that find a
// .sprof or an allocation profile by its name), so the two cannot drift.
//
// Header-only C++17 on char buffers and libc: the runtime links it without
// libstdc++, and every function here is async-signal-safe (no malloc, stdio
// or locks), because the runtime calls them from its SIGINT/SIGTERM path.
// Not installed: it is no part of the plugin/runtime ABI (abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_OUTPUT_H
#define SPINELPROF_OUTPUT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace spinelprof {
namespace output {

inline constexpr char FoldedSuffix[] = ".folded";
inline constexpr char SprofSuffix[] = ".sprof";
inline constexpr char AllocFoldedSuffix[] = ".alloc.folded";
inline constexpr char TemporaryInfix[] = ".tmp-";

/// How long a character device or FIFO may take to accept one file, in
/// total, before the rest of it is given up (describeProblem says "3 s").
inline constexpr uint64_t InPlaceDeadlineNs = 3000000000u;

// ---------------------------------------------------------------------------
// Names. Each function below writes a name into Out (Size bytes, with its
// NUL) when it fits and returns the name's length either way, as snprintf
// does: a result >= Size means it did not fit (Out may be null when Size is
// 0, to ask for the length). Async-signal-safe.
// ---------------------------------------------------------------------------

/// Whether Path ends in Suffix. Async-signal-safe.
inline bool endsWith(const char *Path, const char *Suffix) {
  size_t Len = strlen(Path), SuffixLen = strlen(Suffix);
  return Len >= SuffixLen && memcmp(Path + Len - SuffixLen, Suffix, SuffixLen) == 0;
}

/// The length of Path without a trailing ".folded". Async-signal-safe.
inline size_t stemLength(const char *Path) {
  size_t Len = strlen(Path);
  return endsWith(Path, FoldedSuffix) ? Len - (sizeof(FoldedSuffix) - 1) : Len;
}

namespace detail {
/// Appends N bytes of Text at Out[Len] if they fit with a NUL in Size
/// bytes; returns Len + N. Async-signal-safe.
inline size_t put(char *Out, size_t Size, size_t Len, const char *Text, size_t N) {
  if (Len + N < Size) {
    memcpy(Out + Len, Text, N);
    Out[Len + N] = '\0';
  }
  return Len + N;
}

inline size_t put(char *Out, size_t Size, size_t Len, const char *Text) {
  return put(Out, Size, Len, Text, strlen(Text));
}

/// Appends Pid in decimal. Async-signal-safe.
inline size_t putPid(char *Out, size_t Size, size_t Len, int Pid) {
  char Digits[12];
  size_t N = 0;
  for (unsigned V = unsigned(Pid); N == 0 || V; V /= 10)
    Digits[N++] = char('0' + V % 10);
  for (size_t I = 0; I < N / 2; ++I) {
    char C = Digits[I];
    Digits[I] = Digits[N - 1 - I];
    Digits[N - 1 - I] = C;
  }
  return put(Out, Size, Len, Digits, N);
}
} // namespace detail

/// The profile beside a folded path: a trailing ".folded" replaced by
/// ".sprof", else ".sprof" appended. Async-signal-safe.
inline size_t sprofPathFor(char *Out, size_t Size, const char *Folded) {
  size_t Len = detail::put(Out, Size, 0, Folded, stemLength(Folded));
  return detail::put(Out, Size, Len, SprofSuffix);
}

/// The allocation profile's folded path: a trailing ".folded" replaced by
/// ".alloc.folded", else ".alloc.folded" appended. Async-signal-safe.
inline size_t allocPathFor(char *Out, size_t Size, const char *Folded) {
  size_t Len = detail::put(Out, Size, 0, Folded, stemLength(Folded));
  return detail::put(Out, Size, Len, AllocFoldedSuffix);
}

/// A fork child's folded path when SPINEL_PROFILE has no %p: ".<pid>"
/// inserted before a trailing ".folded", else appended. Async-signal-safe.
inline size_t forkChildPathFor(char *Out, size_t Size, const char *Folded, int Pid) {
  size_t Stem = stemLength(Folded);
  size_t Len = detail::put(Out, Size, 0, Folded, Stem);
  Len = detail::put(Out, Size, Len, ".");
  Len = detail::putPid(Out, Size, Len, Pid);
  return detail::put(Out, Size, Len, Folded + Stem);
}

/// The temporary a regular file is written under before it is renamed onto
/// Target (a final target's own name, see resolveTarget): "<target>.tmp-<pid>".
/// Async-signal-safe.
inline size_t temporaryPathFor(char *Out, size_t Size, const char *Target, int Pid) {
  size_t Len = detail::put(Out, Size, 0, Target);
  Len = detail::put(Out, Size, Len, TemporaryInfix);
  return detail::putPid(Out, Size, Len, Pid);
}

/// The folded path for SPINEL_PROFILE=Spec (null when unset or "1"): Spec
/// with each "%p" replaced by Pid (kept when Pid < 0, for a template),
/// taken against Cwd when relative; without Spec, "<Cwd>/<basename of
/// Program, or a.out>.folded". Async-signal-safe.
inline size_t foldedPathFor(char *Out, size_t Size, const char *Spec, const char *Cwd,
                            const char *Program, int Pid) {
  size_t Len = 0;
  if (!Spec || Spec[0] != '/') {
    Len = detail::put(Out, Size, Len, Cwd);
    if (Len == 0 || Cwd[Len - 1] != '/')
      Len = detail::put(Out, Size, Len, "/");
  }
  if (!Spec) {
    const char *Base = strrchr(Program, '/');
    Base = Base ? Base + 1 : Program;
    Len = detail::put(Out, Size, Len, *Base ? Base : "a.out");
    return detail::put(Out, Size, Len, FoldedSuffix);
  }
  for (const char *P = Spec; *P; ++P) {
    if (P[0] == '%' && P[1] == 'p' && Pid >= 0) {
      Len = detail::putPid(Out, Size, Len, Pid);
      ++P;
    } else {
      Len = detail::put(Out, Size, Len, P, 1);
    }
  }
  return Len;
}

// ---------------------------------------------------------------------------
// Targets: what an output path finally names decides how it is written.
// ---------------------------------------------------------------------------

enum class TargetKind {
  NewFile,    ///< Nothing there yet (also a dangling symlink's target).
  File,       ///< A regular file.
  CharDevice, ///< Written in place.
  Fifo,       ///< Written in place, when it has a reader.
  Directory,  ///< Never written (EISDIR).
  Other,      ///< A socket or block device: never written (ENOTSUP).
};

/// A regular file, existing or to be created: written under a temporary
/// name beside the final target and renamed onto it. Async-signal-safe.
inline bool isRegular(TargetKind Kind) {
  return Kind == TargetKind::NewFile || Kind == TargetKind::File;
}

struct Target {
  TargetKind Kind;
  mode_t Mode; ///< The target's st_mode; 0 for a new file.
  /// A regular or new file: the final target's own name (symlinks followed),
  /// where the temporary goes and the rename lands, so a symlink is never
  /// replaced. Any other kind: the path as given (open follows symlinks).
  char Path[PATH_MAX];
};

namespace detail {
inline TargetKind kindOf(mode_t Mode) {
  if (S_ISREG(Mode))
    return TargetKind::File;
  if (S_ISCHR(Mode))
    return TargetKind::CharDevice;
  if (S_ISFIFO(Mode))
    return TargetKind::Fifo;
  if (S_ISDIR(Mode))
    return TargetKind::Directory;
  return TargetKind::Other;
}

/// Replaces Path by the target of the symlink it names: an absolute link,
/// or a relative one taken against the link's own directory. Returns 0 or
/// an errno. Async-signal-safe.
inline int followLink(char (&Path)[PATH_MAX]) {
  char Link[PATH_MAX];
  ssize_t N = readlink(Path, Link, sizeof(Link) - 1);
  if (N < 0)
    return errno;
  if (size_t(N) == sizeof(Link) - 1)
    return ENAMETOOLONG;
  Link[N] = '\0';
  const char *Slash = strrchr(Path, '/');
  size_t Dir = Link[0] == '/' || !Slash ? 0 : size_t(Slash - Path) + 1;
  if (put(Path, sizeof(Path), Dir, Link, size_t(N)) >= sizeof(Path))
    return ENAMETOOLONG;
  return 0;
}
} // namespace detail

/// Classifies Path by stat(), which follows symlinks, and for a regular or
/// new file finds the final target's own name by following the symlinks
/// that name it (up to 40, as the kernel does). Returns 0 or an errno:
/// ENOENT for a missing directory, ENOTDIR, EACCES, ELOOP, ENAMETOOLONG.
/// Async-signal-safe.
inline int resolveTarget(const char *Path, Target &Out) {
  Out.Kind = TargetKind::NewFile;
  Out.Mode = 0;
  if (detail::put(Out.Path, sizeof(Out.Path), 0, Path) >= sizeof(Out.Path))
    return ENAMETOOLONG;
  struct stat St;
  if (stat(Path, &St) == 0) {
    Out.Kind = detail::kindOf(St.st_mode);
    Out.Mode = St.st_mode;
    if (!isRegular(Out.Kind))
      return 0;
  } else if (errno != ENOENT) {
    return errno;
  }
  for (int Links = 0; Links <= 40; ++Links) {
    struct stat Link;
    if (lstat(Out.Path, &Link) != 0)
      return errno == ENOENT && Out.Kind == TargetKind::NewFile ? 0 : errno;
    if (!S_ISLNK(Link.st_mode)) {
      // The name found must be the file stat() found (a link into /proc
      // can name what no path reaches; or the path changed meanwhile).
      bool Same = Out.Kind == TargetKind::File && Link.st_dev == St.st_dev &&
                  Link.st_ino == St.st_ino;
      return Same ? 0 : ENOENT;
    }
    if (int Err = detail::followLink(Out.Path))
      return Err;
  }
  return ELOOP;
}

/// 0 when a profile can be written to T's kind; EISDIR for a directory;
/// ENOTSUP for a socket, block device or other special file.
/// Async-signal-safe.
inline int checkKind(const Target &T) {
  if (T.Kind == TargetKind::Directory)
    return EISDIR;
  return T.Kind == TargetKind::Other ? ENOTSUP : 0;
}

/// "character device", "FIFO", "file" for messages. Async-signal-safe.
inline const char *kindName(TargetKind Kind) {
  switch (Kind) {
  case TargetKind::CharDevice: return "character device";
  case TargetKind::Fifo: return "FIFO";
  case TargetKind::Directory: return "directory";
  case TargetKind::Other: return "special file";
  default: return "file";
  }
}

/// The words for a failure Err on T where strerror's would mislead (a FIFO
/// with no reader is "No such device or address"), or null: then say
/// strerror(Err). Async-signal-safe.
inline const char *describeProblem(int Err, const Target &T) {
  if (Err == ENOTSUP && T.Kind == TargetKind::Other) {
    if (S_ISSOCK(T.Mode))
      return "it is a socket; a profile is written to a file, a character "
             "device or a FIFO only";
    if (S_ISBLK(T.Mode))
      return "it is a block device; a profile is written to a file, a "
             "character device or a FIFO only";
    return "it is not a file, a character device or a FIFO";
  }
  if (Err == ESTALE && !isRegular(T.Kind))
    return "it was replaced while it was opened; nothing written";
  if (T.Kind == TargetKind::Fifo && Err == ENXIO)
    return "the FIFO has no reader";
  if (T.Kind == TargetKind::Fifo && Err == EPIPE)
    return "the FIFO's reader left before the end";
  if (Err == ETIMEDOUT && !isRegular(T.Kind))
    return T.Kind == TargetKind::Fifo
               ? "the FIFO's reader did not take it all within 3 s"
               : "the device did not take it all within 3 s";
  return nullptr;
}

// ---------------------------------------------------------------------------
// Writing. ppoll and rt_sigtimedwait are made as system calls: the runtime
// defines poll and sigtimedwait in the program (to see the program's own
// blocking calls), and its wrappers may call dlsym the first time, which is
// no call for the SIGINT copy of the process. write stays libc's, as every
// other write of the runtime (test/Stress/output-errors.c interposes it to
// fill the disk).
// ---------------------------------------------------------------------------

/// CLOCK_MONOTONIC in nanoseconds, for deadlines. Async-signal-safe.
inline uint64_t monotonicNs() {
  struct timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  return uint64_t(Now.tv_sec) * 1000000000u + uint64_t(Now.tv_nsec);
}

/// Opens what T's kind says to write, and returns the descriptor or
/// -errno. A regular or new file: its temporary beside T.Path (its name in
/// Temp), created with mode 0666 & ~umask, truncated, never through a
/// symlink. A character device or FIFO: T.Path itself, O_WRONLY |
/// O_NONBLOCK, neither created nor truncated, never made the controlling
/// terminal (Temp is ""); a FIFO with no reader is -ENXIO, and a path that
/// is no longer what resolveTarget found -ESTALE. Anything else:
/// checkKind's errno. Async-signal-safe.
inline int openForWriting(const Target &T, int Pid, char *Temp, size_t TempSize) {
  if (TempSize)
    Temp[0] = '\0';
  if (int Err = checkKind(T))
    return -Err;
  int Flags = O_WRONLY | O_CLOEXEC, FD;
  const char *Path = T.Path;
  if (isRegular(T.Kind)) {
    if (temporaryPathFor(Temp, TempSize, T.Path, Pid) >= TempSize)
      return -ENAMETOOLONG;
    Path = Temp;
    Flags |= O_CREAT | O_TRUNC | O_NOFOLLOW;
  } else {
    Flags |= O_NONBLOCK | O_NOCTTY;
  }
  do
    FD = open(Path, Flags, 0666);
  while (FD < 0 && errno == EINTR);
  if (FD < 0)
    return -errno;
  struct stat St;
  if (!isRegular(T.Kind) &&
      (fstat(FD, &St) != 0 || (St.st_mode & S_IFMT) != (T.Mode & S_IFMT))) {
    close(FD); // Replaced since resolveTarget: never write into that.
    return -ESTALE;
  }
  return FD;
}

namespace detail {
/// write(2) that never raises SIGPIPE (a FIFO whose reader left sends it,
/// and it would kill the program): the signal is blocked on this thread
/// for the write and, if the write raised it and it was not pending
/// before, taken back. Async-signal-safe.
inline ssize_t writeWithoutSigpipe(int FD, const void *Data, size_t Size) {
  sigset_t Pipe, Saved, Pending;
  sigemptyset(&Pipe);
  sigaddset(&Pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &Pipe, &Saved);
  sigpending(&Pending);
  bool WasPending = sigismember(&Pending, SIGPIPE);
  ssize_t N = write(FD, Data, Size);
  int Err = errno;
  if (N < 0 && Err == EPIPE && !WasPending) {
    struct timespec Zero = {0, 0};
    (void)syscall(SYS_rt_sigtimedwait, &Pipe, nullptr, &Zero, _NSIG / 8);
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  errno = Err;
  return N;
}

/// Waits until FD takes more (0), or until DeadlineNs (ETIMEDOUT).
/// Async-signal-safe.
inline int waitWritable(int FD, uint64_t DeadlineNs) {
  uint64_t Now = monotonicNs();
  if (Now >= DeadlineNs)
    return ETIMEDOUT;
  struct pollfd P = {FD, POLLOUT, 0};
  uint64_t Left = DeadlineNs - Now;
  struct timespec Wait = {time_t(Left / 1000000000u), long(Left % 1000000000u)};
  long R = syscall(SYS_ppoll, &P, 1, &Wait, nullptr, _NSIG / 8);
  if (R < 0 && errno != EINTR)
    return errno;
  return R == 0 && monotonicNs() >= DeadlineNs ? ETIMEDOUT : 0;
}
} // namespace detail

/// Writes all of Data to FD, retrying on EINTR and short writes; a
/// non-blocking FD (a device or FIFO from openForWriting) that is full is
/// waited for until DeadlineNs (CLOCK_MONOTONIC), then ETIMEDOUT. Never
/// raises SIGPIPE. Returns 0 or an errno. Async-signal-safe.
inline int writeAllBefore(int FD, const void *Data, size_t Size, uint64_t DeadlineNs) {
  const char *P = static_cast<const char *>(Data);
  while (Size > 0) {
    ssize_t N = detail::writeWithoutSigpipe(FD, P, Size);
    if (N > 0) {
      P += N;
      Size -= size_t(N);
      continue;
    }
    if (N == 0)
      return EIO; // A file, device or FIFO never does this; do not spin.
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN)
      return errno;
    if (int Err = detail::waitWritable(FD, DeadlineNs))
      return Err;
  }
  return 0;
}

/// Finishes a write opened by openForWriting, after its descriptor is
/// closed: a regular file's temporary put in T.Path's place (nothing to do
/// for a device or FIFO). Over an existing file the two are exchanged
/// (RENAME_EXCHANGE) and the old one, now under the temporary's name,
/// removed: T.Path names the old file or the new one at every instant, as
/// with rename; but a rename over an existing file makes ext4
/// (auto_da_alloc) start writing the new file's blocks out inside the
/// call, ~0.2 ms a file here, on every run that replaces a profile.
/// Where there is nothing to exchange with, or the file system cannot, a
/// rename. A directory that took T.Path's place after resolveTarget is put
/// back, and the answer is rename's, EISDIR. Returns 0 or an errno.
/// Async-signal-safe.
inline int publish(const Target &T, const char *Temp) {
  if (!isRegular(T.Kind))
    return 0;
  if (renameat2(AT_FDCWD, Temp, AT_FDCWD, T.Path, RENAME_EXCHANGE) == 0) {
    // The old file; if it stays (unlink failed), it only takes space.
    if (unlink(Temp) == 0 || errno != EISDIR)
      return 0;
    renameat2(AT_FDCWD, Temp, AT_FDCWD, T.Path, RENAME_EXCHANGE);
    return EISDIR;
  }
  return rename(Temp, T.Path) == 0 ? 0 : errno;
}

} // namespace output
} // namespace spinelprof

#endif // SPINELPROF_OUTPUT_H
