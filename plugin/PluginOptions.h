//===- PluginOptions.h - Everything a user can set for the plugin ---------===//
//
// The plugin's options, each a `-spinelprof-*` command-line option (opt, or
// clang with the plugin loaded by -Xclang -load) and, except where noted,
// a SPINEL_PROFILE_* variable in the compiler's environment: clang parses
// -mllvm before it loads a -fpass-plugin, so `spinel-prof cc` sets the
// variables. A command-line option that is given wins over its variable.
//
//   -spinelprof-include      SPINEL_PROFILE_INCLUDE       regex of frames
//   -spinelprof-exclude      SPINEL_PROFILE_EXCLUDE       regex of no frames
//   -spinelprof-frames       SPINEL_PROFILE_FRAMES        default|lean|all
//   -spinelprof-leaf-max-size SPINEL_PROFILE_LEAF_MAX_SIZE PC-named leaf size
//   -spinelprof-helper-min-size (no variable)             helper frame size
//   -spinelprof-symbols      SPINEL_PROFILE_SYMBOLS       symbol map path
//   -spinelprof-alloc-sites  SPINEL_PROFILE_ALLOC_SITES   0: no alloc marks
//   -spinelprof-tls          SPINEL_PROFILE_TLS           auto|initial-exec
//   (no option)              SPINEL_PROFILE_STAGE         late: experiment
//   (no option)              SPINEL_PROFILE_RUNTIME       runtime library
//
// docs/usage.md has the same table for users.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_PLUGINOPTIONS_H
#define SPINELPROF_PLUGIN_PLUGINOPTIONS_H

#include <string>

namespace spinelprof {

/// An option's value and where it came from, for error messages.
struct OptionValue {
  std::string Value;
  /// "-spinelprof-include", "SPINEL_PROFILE_INCLUDE", ...
  std::string Origin;
};

/// The frame policy's options (FramePolicy.h). FramePolicy::create checks
/// them; an empty Include, Exclude or Frames is not applied.
struct FramePolicyOptions {
  OptionValue Include;
  OptionValue Exclude;
  /// "default" (or empty), "lean" or "all".
  OptionValue Frames;
  /// A number of IR instructions, as text: the variable's is checked when
  /// the policy is created.
  OptionValue LeafMaxSize;
  /// IR instructions a runtime helper needs to keep its frame.
  unsigned HelperMinSize = 0;
  /// SPINEL_PROFILE_RUNTIME=1 (any value but "" and "0"): the code being
  /// compiled is Spinel's runtime library (libspinel_rt.a built with
  /// `spinel-prof cc`), not a program: no function in it is the program's
  /// own, whichever file defines it.
  bool CompilingRuntimeLibrary = false;
};

/// Everything the plugin is told.
struct PluginOptions {
  FramePolicyOptions Policy;
  /// The symbol map's path (SymbolMap.h); empty: none.
  OptionValue Symbols;
  /// False for `-spinelprof-alloc-sites=0` or SPINEL_PROFILE_ALLOC_SITES=0:
  /// AllocSitesPass marks nothing.
  bool MarkAllocSites = true;
  /// How code reaches the runtime's thread-locals: "" or "auto" (by the
  /// module's PIC and PIE levels), "initial-exec" (RuntimeThreadLocals.h).
  OptionValue TLSModel;
  /// SPINEL_PROFILE_STAGE=late: instrument at the end of the optimization
  /// pipeline (after inlining: only the functions that survive as
  /// functions get a frame) instead of at its start. An experiment measured
  /// in docs/performance.md, not a supported mode.
  bool InstrumentAfterOptimization = false;
};

/// Merges the command-line options and the environment, as the table above
/// says. Reads the process's state: call it when the pipeline is built
/// (the command line is parsed by then).
PluginOptions readPluginOptions();

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_PLUGINOPTIONS_H
