//===- RunCommand.cpp - spinel-prof run: Ruby to profile in one step ------===//
//
// spinel app.rb -o BIN --cc='<spinel-prof> cc'  →  BIN ARGS (stdin, stdout,
// stderr and exit status are the program's)  →  app.folded, app.sprof,
// app.html in the current directory and a top-10 report on stderr.
//
// Exit status: the program's own (128+N when signal N killed it: one line
// names the signal, and the profile a crash leaves is reported as usual);
// 127 when no Spinel is found; 125 when Spinel fails to build the program;
// 2 for bad usage. Frames carry APP.rb's lines through a symbol map that
// Ruby's parser writes (RubySymbols). What goes wrong after the program ran (an unreadable
// profile, no flamegraph) is a warning and never changes the program's
// status. Spinel's own warnings are shown even when the build succeeds (a
// warning such as "cannot resolve call to 'bar' on int (emitting 0)" means
// the program it built is not the one written).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "InstallLayout.h"
#include "KindSplit.h"
#include "ProfileInput.h"
#include "Report.h"
#include "RubySymbols.h"
#include "ShellQuote.h"
#include "SpinelLocator.h"
#include "ToolError.h"

#include "spinelprof/output.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace spinelprof {

namespace {

constexpr int ExitNoSpinel = 127;
constexpr int ExitBuildFailed = 125;

struct RunOptions {
  std::optional<std::string> Spinel;
  std::optional<std::string> Symbols;
  std::optional<std::string> BuildDir;
  /// SPINEL_PROFILE_HZ for the program; unset: the runtime's default.
  std::optional<std::string> Hz;
  std::string App;
  std::vector<std::string> ProgramArgs;
};

/// --hz's value: a whole number of samples per second, in the runtime's
/// range for SPINEL_PROFILE_HZ (runtime/spinelprof_flags.h).
std::string parseHz(const std::string &Text) {
  char *End = nullptr;
  errno = 0;
  long Hz = Text.empty() ? 0 : std::strtol(Text.c_str(), &End, 10);
  if (Text.empty() || *End || errno || Hz < 1 || Hz > 100000)
    throw UsageError("run", "--hz wants a whole number of samples per second "
                            "from 1 to 100000, got '" + Text + "'");
  return std::to_string(Hz);
}

RunOptions parseRunArgs(const std::vector<std::string> &Args, bool &Help) {
  RunOptions O;
  Help = false;
  size_t I = 0;
  for (; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "-h" || Arg == "--help") {
      Help = true;
      return O;
    }
    if (Arg == "--") {
      ++I;
      break;
    }
    if (Arg.empty() || Arg[0] != '-')
      break;
    size_t Eq = Arg.find('=');
    std::string Name = Arg.substr(0, Eq);
    auto Value = [&]() -> std::string {
      if (Eq != std::string::npos)
        return Arg.substr(Eq + 1);
      if (I + 1 >= Args.size())
        throw UsageError("run", Name + " needs a value");
      return Args[++I];
    };
    if (Name == "--spinel")
      O.Spinel = Value();
    else if (Name == "--symbols")
      O.Symbols = Value();
    else if (Name == "--build-dir")
      O.BuildDir = Value();
    else if (Name == "--hz")
      O.Hz = parseHz(Value());
    else
      throw UsageError("run", "unknown option '" + Arg + "'");
  }
  if (I >= Args.size())
    throw UsageError("run", "no Ruby program given");
  O.App = Args[I++];
  if (O.App.size() < 4 || O.App.compare(O.App.size() - 3, 3, ".rb") != 0)
    throw UsageError("run", "the program must be a .rb file, got '" + O.App + "'");
  // Everything after the program is its arguments; a first `--` is dropped.
  if (I < Args.size() && Args[I] == "--")
    ++I;
  O.ProgramArgs.assign(Args.begin() + long(I), Args.end());
  return O;
}

std::vector<char *> cStrings(std::vector<std::string> &Strings) {
  std::vector<char *> Out;
  for (std::string &S : Strings)
    Out.push_back(S.data());
  Out.push_back(nullptr);
  return Out;
}

/// The environment with Overrides (NAME=VALUE) replacing any same NAME.
std::vector<std::string> environmentWith(const std::vector<std::string> &Overrides) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    std::string Entry = *E;
    std::string Name = Entry.substr(0, Entry.find('='));
    bool Replaced = false;
    for (const std::string &O : Overrides)
      Replaced |= O.compare(0, Name.size() + 1, Name + "=") == 0;
    if (!Replaced)
      Env.push_back(Entry);
  }
  Env.insert(Env.end(), Overrides.begin(), Overrides.end());
  return Env;
}

/// What a child process did.
struct ChildStatus {
  bool Started = false;
  int StartErrno = 0;
  int WaitStatus = 0;
};

/// Runs Argv with Env: the file Path, or Argv[0] when Path is empty.
/// StdinFd/OutFd/ErrFd -1 keep ours. While the child runs, the terminal's
/// SIGINT and SIGQUIT go to it alone (as system(3) does), so an
/// interrupted program still gets its profile reported.
ChildStatus runChild(std::vector<std::string> Argv, std::vector<std::string> Env,
                     int StdinFd, int OutFd, int ErrFd, const std::string &Path = "") {
  ChildStatus Result;
  std::vector<char *> CArgv = cStrings(Argv), CEnv = cStrings(Env);
  int ErrPipe[2];
  if (pipe2(ErrPipe, O_CLOEXEC) != 0) {
    Result.StartErrno = errno;
    return Result;
  }
  struct sigaction Ignore = {}, OldInt, OldQuit;
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  std::fflush(nullptr);
  pid_t Pid = fork();
  if (Pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    if ((StdinFd >= 0 && dup2(StdinFd, 0) < 0) || (OutFd >= 0 && dup2(OutFd, 1) < 0) ||
        (ErrFd >= 0 && dup2(ErrFd, 2) < 0)) {
      int E = errno;
      (void)!write(ErrPipe[1], &E, sizeof E);
      _exit(127);
    }
    execve(Path.empty() ? CArgv[0] : Path.c_str(), CArgv.data(), CEnv.data());
    int E = errno;
    (void)!write(ErrPipe[1], &E, sizeof E);
    _exit(127);
  }
  close(ErrPipe[1]);
  if (Pid < 0) {
    Result.StartErrno = errno;
  } else {
    int E = 0;
    ssize_t N;
    do
      N = read(ErrPipe[0], &E, sizeof E);
    while (N < 0 && errno == EINTR);
    pid_t W;
    do
      W = waitpid(Pid, &Result.WaitStatus, 0);
    while (W < 0 && errno == EINTR);
    if (N == ssize_t(sizeof E))
      Result.StartErrno = E;
    else
      Result.Started = true;
  }
  close(ErrPipe[0]);
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  return Result;
}

int openOrThrow(const char *Path, int Flags) {
  int Fd = open(Path, Flags | O_CLOEXEC, 0600);
  if (Fd < 0)
    throw InputError(fmt::format("{}: {}", Path, std::strerror(errno)));
  return Fd;
}

/// A build directory that is removed at the end unless the user chose it.
class BuildDirectory {
public:
  explicit BuildDirectory(const std::optional<std::string> &Chosen) {
    namespace fs = std::filesystem;
    if (Chosen) {
      std::error_code EC;
      fs::create_directories(*Chosen, EC);
      if (EC)
        throw InputError(*Chosen + ": cannot create the build directory: " + EC.message());
      Path = fs::absolute(*Chosen).lexically_normal().string();
      return;
    }
    const char *Tmp = std::getenv("TMPDIR");
    std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/spinel-prof-run.XXXXXX";
    if (!mkdtemp(Template.data()))
      throw InputError(Template + ": cannot create a temporary directory: " +
                       std::strerror(errno));
    Path = Template;
    Temporary = true;
  }
  ~BuildDirectory() {
    if (Temporary) {
      std::error_code EC;
      std::filesystem::remove_all(Path, EC);
    }
  }
  BuildDirectory(const BuildDirectory &) = delete;
  BuildDirectory &operator=(const BuildDirectory &) = delete;

  std::string Path;

private:
  bool Temporary = false;
};

std::string readAll(int Fd) {
  std::string Text;
  lseek(Fd, 0, SEEK_SET);
  char Buffer[8192];
  for (;;) {
    ssize_t N = read(Fd, Buffer, sizeof Buffer);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Text.append(Buffer, size_t(N));
  }
  return Text;
}

void warn(const std::string &Message) {
  fmt::print(stderr, "spinel-prof: run: {}\n", Message);
}

/// "SIGSEGV" for signal 11; "signal N" for one without a name.
std::string signalName(int Signal) {
  const char *Abbrev = sigabbrev_np(Signal);
  return Abbrev ? std::string("SIG") + Abbrev : fmt::format("signal {}", Signal);
}

/// Spinel's warnings in its build output: the lines containing
/// "warning:", but not the C compiler's about the generated C (those name
/// a .c or .h file and a line and column), which are not about the Ruby.
std::string spinelWarnings(const std::string &Output) {
  static const std::regex CompilerDiagnostic(R"(^\S+\.[ch]:\d+:\d+: warning:)");
  std::string Warnings, Line;
  std::istringstream Lines(Output);
  while (std::getline(Lines, Line))
    if (Line.find("warning:") != std::string::npos &&
        !std::regex_search(Line, CompilerDiagnostic))
      Warnings += Line + "\n";
  return Warnings;
}

/// The symbol map for the compiler: APP.rb's lines merged with the user's
/// map, written beside \p Binary; the user's map alone (or none) when Ruby
/// cannot read APP.rb, which one line says.
std::optional<std::string> symbolMapFor(const RunOptions &O, const std::string &Binary) {
  std::string Map = Binary + ".symbols.json";
  RubySymbolsResult Result = writeRubySymbolMap(O.App, O.Symbols, Map);
  if (Result.Written)
    return Map;
  warn(Result.Problem + "; frames keep the generated C's locations");
  return O.Symbols;
}

/// Builds the program; returns 0 or the exit status for `run`.
int buildProgram(const RunOptions &O, const std::string &Spinel, const std::string &Binary) {
  InstallLayout Layout = locateInstallLayout();
  std::string Cc = Layout.ExecutablePath + " cc";
  if (std::optional<std::string> Symbols = symbolMapFor(O, Binary)) {
    std::error_code EC;
    Cc += " --symbols " + std::filesystem::absolute(*Symbols, EC).string();
  }
  // Spinel's own output (progress, errors) is shown only when it fails.
  std::string LogPath = Binary + ".build-log";
  int Log = openOrThrow(LogPath.c_str(), O_RDWR | O_CREAT | O_TRUNC);
  int Null = openOrThrow("/dev/null", O_RDONLY);
  ChildStatus S = runChild({Spinel, O.App, "-o", Binary, "--cc=" + Cc}, environmentWith({}),
                           Null, Log, Log);
  close(Null);
  std::string Output = readAll(Log);
  close(Log);
  unlink(LogPath.c_str());
  if (!S.Started) {
    warn(fmt::format("cannot run {}: {}", Spinel, std::strerror(S.StartErrno)));
    return ExitNoSpinel;
  }
  if (WIFEXITED(S.WaitStatus) && WEXITSTATUS(S.WaitStatus) == 0 && access(Binary.c_str(), X_OK) == 0) {
    std::string Warnings = spinelWarnings(Output);
    std::fwrite(Warnings.data(), 1, Warnings.size(), stderr);
    return 0;
  }
  std::fwrite(Output.data(), 1, Output.size(), stderr);
  if (WIFSIGNALED(S.WaitStatus))
    warn(fmt::format("{} was killed by {} while building {}", Spinel,
                     signalName(WTERMSIG(S.WaitStatus)), O.App));
  else if (WIFEXITED(S.WaitStatus) && WEXITSTATUS(S.WaitStatus) == 0)
    warn(fmt::format("{} did not write {}", Spinel, Binary));
  else
    warn(fmt::format("Spinel failed to build {} (exit status {})", O.App,
                     WEXITSTATUS(S.WaitStatus)));
  return ExitBuildFailed;
}

/// After the run: the flamegraph page and the top-10 report. Problems here
/// are warnings; the program's exit status stands. KilledBy is the signal
/// that ended the program, or 0.
void reportProfile(const std::string &Base, int KilledBy) {
  namespace fs = std::filesystem;
  std::string Folded = Base + output::FoldedSuffix, Sprof = sprofPathForFolded(Folded),
              Html = Base + ".html";
  std::error_code EC;
  if (!fs::exists(Folded, EC)) {
    if (KilledBy)
      warn("the program wrote no profile (" + Folded + ") before " + signalName(KilledBy) +
           " ended it");
    else
      warn("the program wrote no profile (" + Folded +
           "); it ended before its exit handlers ran, or profiling was off");
    return;
  }
  if (!fs::is_regular_file(Folded, EC)) {
    warn("the profile went to " + Folded + ", which is not a regular file; no report");
    return;
  }
  // The flamegraph page, by spinel-prof's own `flamegraph` command.
  int Null = openOrThrow("/dev/null", O_RDWR);
  ChildStatus Page = runChild({locateInstallLayout().ExecutablePath, "flamegraph", Folded, "-o", Html},
                              environmentWith({}), Null, Null, -1);
  close(Null);
  bool HavePage = Page.Started && WIFEXITED(Page.WaitStatus) && WEXITSTATUS(Page.WaitStatus) == 0;
  if (!HavePage)
    warn("could not write " + Html);

  try {
    Profile P = readProfile(Folded, [](const std::string &W) { warn(W); });
    ReportOptions Options;
    Options.Top = 10;
    Options.Preamble = renderKindSplit(P);
    std::string Files = Folded + (fs::exists(Sprof, EC) ? ", " + Sprof : "") +
                        (HavePage ? ", " + Html : "");
    fmt::print(stderr, "\n=== spinel-prof: wrote {} ===\n{}", Files, renderReport(P, Options));
  } catch (const InputError &E) {
    warn(E.what());
  }
}

/// Says where Spinel was looked for and how to point at it.
void reportSpinelNotFound(const SpinelSearch &Search) {
  std::string Tried;
  for (const std::string &T : Search.Tried)
    Tried += "\n  " + T;
  fmt::print(stderr,
             "spinel-prof: run: Spinel not found; looked at:{}\n"
             "Install Spinel (github.com/matz/spinel) and point at it with "
             "--spinel PATH or SPINEL=PATH (the `spinel` script or its directory), "
             "or put `spinel` on PATH.\n",
             Tried);
}

/// The folded profile's path for BASE in the working directory, with any
/// profile an earlier run left there removed: it must not pass for this
/// run's. A symlink, device or FIFO put there stays: the profile goes
/// through it.
std::string freshProfilePath(const std::string &Base) {
  namespace fs = std::filesystem;
  std::error_code EC;
  std::string Cwd = fs::current_path(EC).string();
  std::string OutFolded = (fs::path(Cwd) / Base).string() + output::FoldedSuffix;
  for (const std::string &Stale : {OutFolded, sprofPathForFolded(OutFolded)})
    if (fs::is_regular_file(fs::symlink_status(Stale, EC)))
      fs::remove(Stale, EC);
  return OutFolded;
}

/// Runs the profiled binary, then reports its profile; the program's exit
/// status (128 + its signal when one ended it). Its argv[0] is the Ruby
/// file as given, as `ruby app.rb` has it (Spinel's programs read only
/// ARGV, argv[1] on): the profile's command is then `app.rb ARGS`, not a
/// temporary binary's path.
int runProfiled(const RunOptions &O, const std::string &Binary, const std::string &Base) {
  std::vector<std::string> Argv = {O.App};
  Argv.insert(Argv.end(), O.ProgramArgs.begin(), O.ProgramArgs.end());
  std::vector<std::string> Env = {"SPINEL_PROFILE=" + freshProfilePath(Base),
                                  "SPINEL_PROFILE_QUIET=1"};
  if (O.Hz)
    Env.push_back("SPINEL_PROFILE_HZ=" + *O.Hz);
  ChildStatus Run = runChild(Argv, environmentWith(Env), -1, -1, -1, Binary);
  if (!Run.Started) {
    warn(fmt::format("cannot run {}: {}", Binary, std::strerror(Run.StartErrno)));
    return ExitBuildFailed;
  }
  int KilledBy = WIFSIGNALED(Run.WaitStatus) ? WTERMSIG(Run.WaitStatus) : 0;
  if (KilledBy)
    warn("the program was killed by " + signalName(KilledBy) +
         (WCOREDUMP(Run.WaitStatus) ? " (core dumped)" : ""));
  reportProfile(Base, KilledBy);
  if (KilledBy)
    return 128 + KilledBy;
  return WEXITSTATUS(Run.WaitStatus);
}

} // namespace

int runRunCommand(const std::vector<std::string> &Args) {
  bool Help = false;
  RunOptions O = parseRunArgs(Args, Help);
  if (Help) {
    std::fputs(commandHelp("run").c_str(), stdout);
    return ExitSuccess;
  }
  SpinelSearch Search = locateSpinel(O.Spinel);
  if (Search.Script.empty()) {
    reportSpinelNotFound(Search);
    return ExitNoSpinel;
  }
  namespace fs = std::filesystem;
  std::string Base = fs::path(O.App).filename().string();
  Base.resize(Base.size() - 3); // ".rb"
  BuildDirectory Dir(O.BuildDir);
  std::string Binary = (fs::path(Dir.Path) / Base).string();
  if (int Status = buildProgram(O, Search.Script, Binary))
    return Status;
  return runProfiled(O, Binary, Base);
}

} // namespace spinelprof
