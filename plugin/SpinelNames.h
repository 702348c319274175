//===- SpinelNames.h - Spinel C names to Ruby names and frame kinds -------===//
//
// Spinel compiles `Geo::Vec#zero?` to `sp_Geo_Vec_zero_p`; this file turns
// such names back into Ruby names and decides a frame's kind. The naming
// conventions are those of Spinel's generated C (see the rules in
// rubyMethodName and identifyFrame).
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_SPINELNAMES_H
#define SPINELPROF_PLUGIN_SPINELNAMES_H

#include "spinelprof/abi.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace spinelprof {

/// Where a function was defined, as its debug info records it.
struct DefinitionSite {
  /// The DIFile file name as written ("app.rb", "app.c", "lib/sp_runtime.h"),
  /// or the module's source file name without debug info.
  std::string File;
  /// The line of the definition, 0 when unknown.
  unsigned Line = 0;
  /// True for the program's own code (the compile unit's main file, or a .rb
  /// file named by #line); false for a function defined in a header, which
  /// in Spinel's output is a runtime helper. True without debug info.
  bool IsProgramOwn = true;
};

/// What a frame is called in a profile and what kind of frame it is.
struct FrameIdentity {
  std::string DisplayName;
  spinelprof_frame_kind Kind = SPINELPROF_KIND_USER;
};

/// Reads \p F's definition site from its DISubprogram. With
/// \p CompilingRuntimeLibrary (SPINEL_PROFILE_RUNTIME, PluginOptions.h:
/// compiling Spinel's runtime library with the plugin) no function is the
/// program's own.
DefinitionSite getDefinitionSite(const llvm::Function &F,
                                 bool CompilingRuntimeLibrary);

/// The definition site from debug info alone, whatever the environment.
DefinitionSite getSourceDefinitionSite(const llvm::Function &F);

/// True for the garbage collector's functions, which self-identify by name
/// wherever they are defined: `sp_gc_*`, `*_gc_scan`, `sp_str_sweep`, and
/// `_proc_cap_scan_N` (the scanner of a proc's captures).
bool isGCFunctionName(llvm::StringRef CName);

/// True for the collector's callbacks run once per object it marks: the
/// scanners `*_gc_scan` and `_proc_cap_scan_N`, and `sp_gc_mark`, which
/// they call for each pointer.
bool isGCCallbackName(llvm::StringRef CName);

/// The Ruby name of a Spinel method symbol, or "" when \p CName is not
/// shaped like one. After `sp_`, the leading capitalised `_`-separated
/// tokens are the class nesting (`::`), none meaning `Object`; `cls` next
/// makes a singleton method (`.`), as does a lone `new`; the rest is the
/// method, with `_p` -> `?`, `_bang` -> `!`, `_eq` -> `=`. An operator
/// follows a doubled underscore (`sp_Geo_Vec__plus` -> `Geo::Vec#+`).
/// `sp_Geo_Vec_zero_p` -> `Geo::Vec#zero?`, `sp_Foo_cls_x` -> `Foo.x`,
/// `sp_fib` -> `Object#fib`.
std::string rubyMethodName(llvm::StringRef CName);

/// The display name of a Spinel block function (`_sp_proc_fn_3` -> `proc 3`,
/// `_lam_2` -> `lambda 2`, `_fiber_body_1` -> `fiber 1`), or "".
std::string blockName(llvm::StringRef CName);

/// Names a frame by Spinel's conventions: \p IsProgramOwn tells a program's
/// method from a runtime helper with a Ruby-looking `sp_` name.
FrameIdentity identifyFrame(llvm::StringRef CName, bool IsProgramOwn);

/// The kind of a frame whose Ruby name came from a symbol map: GC by the C
/// name, block for "block in"/"lambda in"/"fiber in" names, else user.
spinelprof_frame_kind kindOfMappedFrame(llvm::StringRef CName,
                                        llvm::StringRef RubyName);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_SPINELNAMES_H
