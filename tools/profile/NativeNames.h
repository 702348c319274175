//===- NativeNames.h - Naming native addresses from debug files -*- C++ -*-===//
//
// A .sprof (version 3) frame "[native] libc.so.6" may carry the object, its
// build-id and the address in it that the runtime could not name (libc's
// .symtab is stripped). Here they are named from the object's separate
// debug file, as gdb finds it: DEBUG_DIR/.build-id/xx/rest.debug, else by
// the object's .gnu_debuglink name beside the object, in its .debug/, or
// under DEBUG_DIR with the object's directory. A debug file whose build-id
// differs from the profile's is not used.
//
// A native function's C++ symbol ("[native] _ZN10spinelprof11SampleTable6...",
// the profiler's own code, a C++ library's) reads demangled, as perf and
// pprof show it; its C name keeps the symbol.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_NATIVE_NAMES_H
#define SPINELPROF_TOOLS_NATIVE_NAMES_H

#include "Profile.h"

#include <functional>
#include <string>
#include <string_view>

namespace spinelprof {

/// The start of every native frame's name ("[native] memchr"); a frame
/// named "[native]" alone is native code no object was found for.
inline constexpr std::string_view NativePrefix = "[native] ";

/// Where separate debug files are installed (Debian's libc6-dbg and
/// *-dbgsym packages).
inline constexpr const char *DefaultDebugDir = "/usr/lib/debug";

/// Names every frame of P that carries a native address from its object's
/// debug file ("[native] _int_malloc", C name "_int_malloc"), clears the
/// addresses, and merges frames (and then samples) that became equal.
/// Addresses no debug file names stay "[native] OBJECT". A debug file that
/// cannot be read is one call of Warn, naming it and the problem.
void nameNativeFrames(Profile &P, const std::function<void(const std::string &)> &Warn,
                      const std::string &DebugDir = DefaultDebugDir);

/// Demangles the Itanium C++ symbols of P's "[native] _Z..." frames
/// ("[native] spinelprof::SampleTable::record(...)"), keeping the symbol as
/// the C name. Other names are left as they are.
void demangleNativeNames(Profile &P);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_NATIVE_NAMES_H
