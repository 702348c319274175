//===- RubySymbols.cpp - .rb locations as a symbol map, by Ruby's parser --===//
#include "RubySymbols.h"
#include "InstallLayout.h"
#include "SpinelLocator.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace spinelprof {

namespace {

/// $SPINEL_PROF_RUBY, else the first executable `ruby` on PATH, else "".
std::string findRuby() {
  if (const char *Override = std::getenv("SPINEL_PROF_RUBY"); Override && *Override)
    return Override;
  return findOnPath("ruby");
}

/// Runs \p Argv with stderr into a pipe; returns the exit status (-1 when
/// it did not start or was killed) and the first line it wrote to stderr.
int runCapturingStderr(std::vector<std::string> Argv, std::string &FirstLine) {
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    FirstLine = std::strerror(errno);
    return -1;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], 2);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  std::vector<char *> CArgv;
  for (std::string &A : Argv)
    CArgv.push_back(A.data());
  CArgv.push_back(nullptr);
  pid_t Pid;
  int Err = posix_spawn(&Pid, CArgv[0], &Actions, nullptr, CArgv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  std::string Output;
  char Buffer[4096];
  ssize_t N;
  while ((N = read(Pipe[0], Buffer, sizeof Buffer)) != 0) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Output.append(Buffer, size_t(N));
  }
  close(Pipe[0]);
  if (Err != 0) {
    FirstLine = fmt::format("cannot run {}: {}", Argv[0], std::strerror(Err));
    return -1;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  FirstLine = Output.substr(0, Output.find('\n'));
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

} // namespace

RubySymbolsResult writeRubySymbolMap(const std::string &App,
                                     const std::optional<std::string> &UserMap,
                                     const std::string &Out) {
  RubySymbolsResult Result;
  std::string Ruby = findRuby();
  if (Ruby.empty()) {
    Result.Problem = "no Ruby (`ruby` on PATH or SPINEL_PROF_RUBY) to read " + App;
    return Result;
  }
  std::string Script = locateInstallLayout().RubySymbolsScript;
  std::error_code EC;
  if (!std::filesystem::exists(Script, EC)) {
    Result.Problem = Script + ": missing (spinel-prof is not installed whole)";
    return Result;
  }
  std::vector<std::string> Argv = {Ruby, Script, App, "-o", Out};
  if (UserMap) {
    Argv.push_back("--symbols");
    Argv.push_back(*UserMap);
  }
  std::string FirstLine;
  int Status = runCapturingStderr(Argv, FirstLine);
  Result.Written = Status == 0;
  if (!Result.Written)
    Result.Problem = FirstLine.empty() ? fmt::format("{} {} failed", Ruby, Script) : FirstLine;
  return Result;
}

} // namespace spinelprof
