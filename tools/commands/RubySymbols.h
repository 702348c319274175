//===- RubySymbols.h - .rb locations as a symbol map, by Ruby's parser -*- C++ -*-===//
//
// Runs share/spinelprof/spinel-prof-symbols.rb (installed beside the tool)
// with Ruby to write a symbol map that gives each C function Spinel
// generates for app.rb its file and line in app.rb.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_RUBYSYMBOLS_H
#define SPINELPROF_TOOLS_RUBYSYMBOLS_H

#include <optional>
#include <string>

namespace spinelprof {

/// The outcome of writing a map: Written, or one line saying why not.
struct RubySymbolsResult {
  bool Written = false;
  std::string Problem;
};

/// Writes the map of \p App to \p Out. A \p UserMap wins entry by entry
/// (its records first; one without a file or line gets app.rb's). Ruby is
/// $SPINEL_PROF_RUBY, else `ruby` on PATH.
RubySymbolsResult writeRubySymbolMap(const std::string &App,
                                     const std::optional<std::string> &UserMap,
                                     const std::string &Out);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_RUBYSYMBOLS_H
