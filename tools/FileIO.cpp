//===- FileIO.cpp - Reading inputs whole, writing outputs atomically ------===//
#include "FileIO.h"
#include "ToolError.h"

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

void writeFileAtomically(const std::string &Path, std::string_view Contents) {
  // The temporary lives beside the target so that rename(2) stays within
  // one file system and is atomic.
  std::string Temp = Path + ".tmp.XXXXXX";
  int Fd = ::mkstemp(Temp.data());
  if (Fd < 0)
    throw InputError(systemProblem(Path, "cannot create", errno));
  // mkstemp creates 0600; an output file should get the usual umask mode.
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(Fd, 0666 & ~Mask);
  bool Written = writeAll(Fd, Contents);
  int Err = errno;
  if (::close(Fd) != 0 && Written) {
    Written = false;
    Err = errno;
  }
  if (!Written) {
    ::unlink(Temp.c_str());
    throw InputError(systemProblem(Path, "cannot write", Err));
  }
  if (::rename(Temp.c_str(), Path.c_str()) != 0) {
    Err = errno;
    ::unlink(Temp.c_str());
    throw InputError(systemProblem(Path, "cannot write", Err));
  }
}

void writeStandardOutput(std::string_view Contents) {
  if (!writeAll(STDOUT_FILENO, Contents))
    throw InputError(systemProblem("<stdout>", "cannot write", errno));
}

} // namespace spinelprof
