//===- PluginOptions.cpp - Everything a user can set for the plugin -------===//
//
// Every cl::opt of the plugin and every variable it reads, merged by
// readPluginOptions (PluginOptions.h has the table).
//
//===----------------------------------------------------------------------===//

#include "PluginOptions.h"

#include "FramePolicy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cstdlib>

using namespace llvm;
using namespace spinelprof;

static cl::opt<std::string> ClInclude(
    "spinelprof-include",
    cl::desc("Give frames only to functions whose C name matches this POSIX "
             "extended regular expression (whole name); also "
             "SPINEL_PROFILE_INCLUDE"));
static cl::opt<std::string> ClExclude(
    "spinelprof-exclude",
    cl::desc("Give no frame to functions whose C name matches this POSIX "
             "extended regular expression (whole name); wins over include; "
             "also SPINEL_PROFILE_EXCLUDE"));
static cl::opt<std::string> ClFrames(
    "spinelprof-frames",
    cl::desc("Which functions get a frame: 'default' (the program's own "
             "functions, GC entry points, large runtime helpers), 'lean' "
             "(also not the program's inline functions) or 'all'; also "
             "SPINEL_PROFILE_FRAMES"));
static cl::opt<unsigned> ClLeafMaxSize(
    "spinelprof-leaf-max-size", cl::init(DefaultLeafMaxSize),
    cl::desc("Under the default frame policy, the IR instructions up to which "
             "a leaf of the program's own (with the inline helpers it calls) "
             "is named by the program counter instead of pushed; 0 turns "
             "PC-named leaves off; also SPINEL_PROFILE_LEAF_MAX_SIZE"));
static cl::opt<unsigned> ClHelperMinSize(
    "spinelprof-helper-min-size", cl::init(DefaultHelperMinSize),
    cl::desc("Under the default frame policy, the IR instructions a runtime "
             "helper from a header needs to keep its frame"));
static cl::opt<std::string> ClSymbols(
    "spinelprof-symbols",
    cl::desc("Spinel symbol map (JSON, C symbol to Ruby name) whose names win "
             "over the naming rules; also SPINEL_PROFILE_SYMBOLS"));
static cl::opt<std::string> ClAllocSites(
    "spinelprof-alloc-sites",
    cl::desc("0: do not mark allocation sites for allocation profiling "
             "(default 1); also SPINEL_PROFILE_ALLOC_SITES"));

static cl::opt<std::string> ClTLS(
    "spinelprof-tls",
    cl::desc("How instrumented code reaches the runtime's thread-locals: "
             "'auto' (local-exec from an executable's code, initial-exec "
             "from PIC code) or 'initial-exec'; also SPINEL_PROFILE_TLS"));

namespace {

/// The option's value when given on the command line, else the environment
/// variable's, else empty.
OptionValue pickOption(const cl::opt<std::string> &Cl, const char *EnvName) {
  if (Cl.getNumOccurrences())
    return {Cl.getValue(), ("-" + Cl.ArgStr).str()};
  if (const char *Env = std::getenv(EnvName))
    return {Env, EnvName};
  return {};
}

/// The leaf size: the command line's when given, else the variable's text
/// (checked by FramePolicy::create), else the default.
OptionValue pickLeafMaxSize() {
  const char EnvName[] = "SPINEL_PROFILE_LEAF_MAX_SIZE";
  if (const char *Env = std::getenv(EnvName);
      Env && !ClLeafMaxSize.getNumOccurrences())
    return {Env, EnvName};
  return {std::to_string(ClLeafMaxSize.getValue()),
          ("-" + ClLeafMaxSize.ArgStr).str()};
}

/// True when the variable is set to anything but "" and "0".
bool isSetAndNotZero(const char *EnvName) {
  const char *Value = std::getenv(EnvName);
  return Value && *Value && StringRef(Value) != "0";
}

} // namespace

PluginOptions spinelprof::readPluginOptions() {
  PluginOptions Options;
  FramePolicyOptions &Policy = Options.Policy;
  Policy.Include = pickOption(ClInclude, "SPINEL_PROFILE_INCLUDE");
  Policy.Exclude = pickOption(ClExclude, "SPINEL_PROFILE_EXCLUDE");
  Policy.Frames = pickOption(ClFrames, "SPINEL_PROFILE_FRAMES");
  Policy.LeafMaxSize = pickLeafMaxSize();
  Policy.HelperMinSize = ClHelperMinSize;
  Policy.CompilingRuntimeLibrary = isSetAndNotZero("SPINEL_PROFILE_RUNTIME");
  Options.Symbols = pickOption(ClSymbols, "SPINEL_PROFILE_SYMBOLS");
  Options.TLSModel = pickOption(ClTLS, "SPINEL_PROFILE_TLS");
  // Unset marks; only "0" turns marking off.
  const char *AllocSites =
      ClAllocSites.getNumOccurrences()
          ? ClAllocSites.c_str()
          : std::getenv("SPINEL_PROFILE_ALLOC_SITES");
  Options.MarkAllocSites = !AllocSites || StringRef(AllocSites) != "0";
  const char *Stage = std::getenv("SPINEL_PROFILE_STAGE");
  Options.InstrumentAfterOptimization = Stage && StringRef(Stage) == "late";
  return Options;
}
