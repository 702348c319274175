//===- CcDriver.cpp - spinel-prof cc: clang plus plugin plus runtime ------===//
#include "CcDriver.h"
#include "ShellQuote.h"
#include "ToolError.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <unistd.h>

namespace spinelprof {

namespace {

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

// Options whose value is the next argument when written alone ("-o app",
// "-I dir"). Their values must not be mistaken for input files or flags.
constexpr std::string_view SeparateValueOptions[] = {
    "-o", "-I", "-L", "-l", "-D", "-U", "-F", "-B", "-T", "-u", "-z", "-e",
    "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
    "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-ivfsoverlay", "-MF", "-MT", "-MQ",
    "-Xlinker", "-Xclang", "-Xassembler", "-Xpreprocessor", "-mllvm", "-target", "-arch",
    "--sysroot", "--param", "-framework", "-resource-dir", "-dependency-file",
    "-serialize-diagnostics", "-working-directory", "-Xopenmp-target", "--include",
    "--include-directory", "--library-directory", "--output", "--language", "--define-macro",
    "--undefine-macro", "--target", "--gcc-toolchain"};

// Inputs the plugin instruments: anything clang lowers to LLVM IR itself.
// Assembly is not: -gline-tables-only would add debug info to it.
constexpr std::string_view IrSourceExtensions[] = {
    ".c", ".i", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii",
    ".m", ".mi", ".mm", ".M", ".mii", ".ll", ".bc", ".cu", ".hip"};

// -x languages that are compiled to IR (as opposed to headers, assembly).
constexpr std::string_view IrSourceLanguages[] = {
    "c", "c++", "objective-c", "objective-c++", "cpp-output", "c++-cpp-output",
    "objective-c-cpp-output", "objc-cpp-output", "objective-c++-cpp-output", "ir", "cuda", "hip"};

// Warnings that clang 16+ turns into errors by default (see their use).
constexpr const char *CompatWarningsNotErrors[] = {
    "-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types",
    "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int"};

// -g options that do not choose how much debug info to emit; after them the
// user has still left the level to us.
constexpr std::string_view DebugModifierPrefixes[] = {
    "-gz", "-gno-", "-gsplit-dwarf", "-gcolumn-info", "-gpubnames", "-ggnu-pubnames",
    "-gembed-source", "-gstrict-dwarf", "-gsimple-template-names", "-gmodules",
    "-gcodeview-", "-ginline-line-tables", "-gdwarf32", "-gdwarf64", "-grecord-",
    "-gtoggle", "-gbtf"};

template <size_t N>
bool isOneOf(std::string_view S, const std::string_view (&List)[N]) {
  return std::find(std::begin(List), std::end(List), S) != std::end(List);
}

bool hasIrSourceExtension(std::string_view Path) {
  size_t Dot = Path.rfind('.');
  size_t Slash = Path.rfind('/');
  if (Dot == std::string_view::npos || (Slash != std::string_view::npos && Dot < Slash))
    return false;
  return isOneOf(Path.substr(Dot), IrSourceExtensions);
}

bool isDebugLevelOption(std::string_view Arg) {
  if (!startsWith(Arg, "-g"))
    return false;
  for (std::string_view Prefix : DebugModifierPrefixes)
    if (startsWith(Arg, Prefix))
      return false;
  return true;
}

std::string absolutePath(const std::string &Path) {
  std::error_code EC;
  std::filesystem::path Abs = std::filesystem::absolute(Path, EC);
  return EC ? Path : Abs.lexically_normal().string();
}

void requireFile(const std::string &Path, const char *What, const InstallLayout &Layout) {
  if (::access(Path.c_str(), R_OK) == 0)
    return;
  throw InputError(Path + ": " + What + " not found (spinel-prof looks in " +
                   Layout.LibraryDir + ", the lib/ beside " + Layout.ExecutablePath +
                   "; build it, or reinstall spinelprof)");
}

} // namespace

CcOptions parseCcOptions(const std::vector<std::string> &Args) {
  CcOptions Options;
  size_t I = 0;
  auto Value = [&](std::string_view Name, size_t Eq) -> std::string {
    const std::string &Arg = Args[I];
    if (Eq != std::string::npos)
      return Arg.substr(Eq + 1);
    if (I + 1 >= Args.size())
      throw UsageError("cc", std::string(Name) + " needs a value");
    return Args[++I];
  };
  for (; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "--") {
      ++I;
      break;
    }
    if (Arg == "--help" || Arg == "-h") {
      Options.Help = true;
      continue;
    }
    size_t Eq = Arg.find('=');
    std::string_view Name = std::string_view(Arg).substr(0, Eq);
    if (Name == "--symbols")
      Options.SymbolsPath = Value(Name, Eq);
    else if (Name == "--include")
      Options.Include = Value(Name, Eq);
    else if (Name == "--exclude")
      Options.Exclude = Value(Name, Eq);
    else if (Arg == "--all-frames")
      Options.AllFrames = true;
    else
      break;
  }
  Options.CompilerArgs.assign(Args.begin() + static_cast<std::ptrdiff_t>(I), Args.end());
  return Options;
}

CompilerJob classifyCompilerArgs(const std::vector<std::string> &Args) {
  bool AnyInput = false, AnyIrSource = false;
  bool NoCodegen = false, NoLink = false, NotExecutable = false;
  bool LanguageIsIr = false, LanguageGiven = false;
  CompilerJob Job;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string_view Arg = Args[I];
    if (Arg == "-x" && I + 1 < Args.size()) {
      std::string_view Language = Args[++I];
      LanguageGiven = Language != "none";
      LanguageIsIr = isOneOf(Language, IrSourceLanguages);
      continue;
    }
    if (startsWith(Arg, "-x") && Arg.size() > 2) {
      std::string_view Language = Arg.substr(2);
      LanguageGiven = Language != "none";
      LanguageIsIr = isOneOf(Language, IrSourceLanguages);
      continue;
    }
    if (isOneOf(Arg, SeparateValueOptions)) {
      if (Arg == "-l" && I + 1 < Args.size())
        AnyInput = true;
      ++I;
      continue;
    }
    if (Arg == "-" || !startsWith(Arg, "-")) {
      AnyInput = true;
      if (LanguageGiven ? LanguageIsIr : hasIrSourceExtension(Arg))
        AnyIrSource = true;
      continue;
    }
    if (startsWith(Arg, "-l"))
      AnyInput = true;
    else if (Arg == "-E" || Arg == "-M" || Arg == "-MM" || Arg == "-fsyntax-only")
      NoCodegen = true;
    else if (Arg == "-c" || Arg == "-S")
      NoLink = true;
    else if (Arg == "-shared" || Arg == "-r") {
      NotExecutable = true;
      Job.SharedObject = Job.SharedObject || Arg == "-shared";
    }
    else if (isDebugLevelOption(Arg))
      Job.HasDebugLevel = true;
  }
  Job.Compiles = AnyIrSource && !NoCodegen;
  Job.Links = AnyInput && !NoCodegen && !NoLink && !NotExecutable;
  return Job;
}

CompilerCommand buildCompilerCommand(const CcOptions &Options, const InstallLayout &Layout,
                                     const std::string &Clang) {
  CompilerCommand Command;
  Command.Program = Clang;
  CompilerJob Job = classifyCompilerArgs(Options.CompilerArgs);

  if (Options.SymbolsPath) {
    // The plugin runs inside clang, possibly in another directory (Spinel
    // compiles a temporary copy), so it gets an absolute path.
    if (::access(Options.SymbolsPath->c_str(), R_OK) != 0)
      throw InputError(*Options.SymbolsPath + ": cannot read symbol map: " +
                       std::strerror(errno));
    Command.Environment.emplace_back("SPINEL_PROFILE_SYMBOLS", absolutePath(*Options.SymbolsPath));
  }
  if (Options.Include)
    Command.Environment.emplace_back("SPINEL_PROFILE_INCLUDE", *Options.Include);
  if (Options.Exclude)
    Command.Environment.emplace_back("SPINEL_PROFILE_EXCLUDE", *Options.Exclude);
  if (Options.AllFrames)
    Command.Environment.emplace_back("SPINEL_PROFILE_FRAMES", "all");
  // A shared library's code reaches the executable's shadow stack
  // initial-exec: clang compiles it PIE unless told -fPIC, and the plugin
  // would reach it local-exec from PIE code, which links into no library
  // (plugin/RuntimeThreadLocals.h).
  if (Job.Compiles && Job.SharedObject)
    Command.Environment.emplace_back("SPINEL_PROFILE_TLS", "initial-exec");

  if (Job.Compiles) {
    requireFile(Layout.PluginPath, "compiler plugin", Layout);
    Command.Args.push_back("-fpass-plugin=" + Layout.PluginPath);
    // The plugin tells user methods from runtime helpers by their defining
    // file; line tables give it that without changing the code. Placed
    // first so that any -g level the user gives comes later and wins.
    if (!Job.HasDebugLevel)
      Command.Args.push_back("-gline-tables-only");
    // clang 16 made these C diagnostics errors; gcc 12, the compiler a plain
    // Spinel build usually gets, only warns, and Spinel's output can trip
    // them. Profiling must not stop a program from building. Placed before
    // the user's arguments, so their own -Werror=... still wins.
    Command.Args.insert(Command.Args.end(), std::begin(CompatWarningsNotErrors),
                        std::end(CompatWarningsNotErrors));
  }
  Command.Args.insert(Command.Args.end(), Options.CompilerArgs.begin(),
                      Options.CompilerArgs.end());
  if (Job.Links) {
    requireFile(Layout.RuntimePath, "runtime library", Layout);
    Command.Args.push_back(Layout.RuntimePath);
  }
  return Command;
}

std::string formatCommandLine(const CompilerCommand &Command) {
  std::vector<std::string> Words;
  for (const auto &[Name, Value] : Command.Environment)
    Words.push_back(Name + "=" + Value);
  Words.push_back(Command.Program);
  Words.insert(Words.end(), Command.Args.begin(), Command.Args.end());
  return shellJoin(Words);
}

void execCompiler(const CompilerCommand &Command) {
  for (const auto &[Name, Value] : Command.Environment)
    ::setenv(Name.c_str(), Value.c_str(), 1);
  std::vector<char *> Argv;
  Argv.push_back(const_cast<char *>(Command.Program.c_str()));
  for (const std::string &Arg : Command.Args)
    Argv.push_back(const_cast<char *>(Arg.c_str()));
  Argv.push_back(nullptr);
  // execvp so that SPINEL_PROF_CLANG=clang-19 works too; the configured
  // path is absolute and used as is.
  ::execvp(Command.Program.c_str(), Argv.data());
  throw InputError(Command.Program + ": cannot run the compiler: " + std::strerror(errno));
}

} // namespace spinelprof
