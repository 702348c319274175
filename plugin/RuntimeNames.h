//===- RuntimeNames.h - Spinel's runtime helpers by their Ruby names ------===//
//
// The table plugin/RuntimeNames.tsv (compiled in at build time) maps
// Spinel's runtime helpers to the Ruby core methods they implement:
// `sp_str_split_into` -> `String#split`, `sp_StrIntHash_has_key` ->
// `Hash#key?`.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_RUNTIMENAMES_H
#define SPINELPROF_PLUGIN_RUNTIMENAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace spinelprof {

/// The Ruby name of runtime helper \p CName, or "" when the table does not
/// map it (absent, or listed with "-" to keep its C name).
std::string runtimeRubyName(llvm::StringRef CName);

} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_RUNTIMENAMES_H
