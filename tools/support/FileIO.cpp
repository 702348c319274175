//===- FileIO.cpp - Reading inputs whole, writing outputs atomically ------===//
#include "FileIO.h"
#include "ToolError.h"

#include "spinelprof/output.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spinelprof {

namespace {
std::string systemProblem(const std::string &Path, const char *What, int Err) {
  return Path + ": " + What + ": " + std::strerror(Err);
}

// Writes all of Data to Fd, retrying short writes and EINTR; false on error.
bool writeAll(int Fd, std::string_view Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(Fd, Data.data(), Data.size());
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    Data.remove_prefix(static_cast<size_t>(N));
  }
  return true;
}
} // namespace

std::string readWholeFile(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    throw InputError(systemProblem(Path, "cannot open", errno));
  struct stat St;
  if (::fstat(Fd, &St) == 0 && S_ISDIR(St.st_mode)) {
    ::close(Fd);
    throw InputError(Path + ": is a directory");
  }
  std::string Contents;
  char Buffer[1 << 16];
  for (;;) {
    ssize_t N = ::read(Fd, Buffer, sizeof Buffer);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      int Err = errno;
      ::close(Fd);
      throw InputError(systemProblem(Path, "cannot read", Err));
    }
    if (N == 0)
      break;
    Contents.append(Buffer, static_cast<size_t>(N));
  }
  ::close(Fd);
  return Contents;
}

namespace {
[[noreturn]] void throwOutputProblem(const std::string &Path, const char *What, int Err,
                                     const output::Target &T) {
  const char *Problem = output::describeProblem(Err, T);
  throw InputError(Path + ": " + What + ": " + (Problem ? Problem : std::strerror(Err)));
}
} // namespace

void writeOutputFile(const std::string &Path, std::string_view Contents) {
  output::Target T;
  if (int Err = output::resolveTarget(Path.c_str(), T))
    throwOutputProblem(Path, "cannot write", Err, T);
  char Temp[PATH_MAX + 32];
  int Fd = output::openForWriting(T, ::getpid(), Temp, sizeof Temp);
  if (Fd < 0)
    throwOutputProblem(Path, output::isRegular(T.Kind) ? "cannot create" : "cannot write", -Fd,
                       T);
  int Err = output::writeAllBefore(Fd, Contents.data(), Contents.size(),
                                   output::monotonicNs() + output::InPlaceDeadlineNs);
  if (::close(Fd) != 0 && !Err && errno != EINTR)
    Err = errno;
  if (!Err)
    Err = output::publish(T, Temp);
  if (Err) {
    if (Temp[0])
      ::unlink(Temp);
    throwOutputProblem(Path, "cannot write", Err, T);
  }
}

void writeStandardOutput(std::string_view Contents) {
  if (!writeAll(STDOUT_FILENO, Contents))
    throw InputError(systemProblem("<stdout>", "cannot write", errno));
}

} // namespace spinelprof
