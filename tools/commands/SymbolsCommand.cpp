//===- SymbolsCommand.cpp - spinel-prof symbols: .rb locations as a map ---===//
//
// spinel-prof symbols app.rb [-o OUT] [--symbols USER]: the symbol map
// `spinel-prof run` makes by itself, for the `--cc` flow
// (`spinel-prof cc --symbols OUT`).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "RubySymbols.h"
#include "ToolError.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spinelprof {

int runSymbolsCommand(const std::vector<std::string> &Args) {
  std::optional<std::string> App, Out, UserMap;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "-h" || Arg == "--help") {
      std::fputs(commandHelp("symbols").c_str(), stdout);
      return ExitSuccess;
    }
    if (Arg == "-o" || Arg == "--symbols") {
      if (I + 1 >= Args.size())
        throw UsageError("symbols", Arg + " needs a value");
      (Arg == "-o" ? Out : UserMap) = Args[++I];
    } else if (!Arg.empty() && Arg[0] == '-') {
      throw UsageError("symbols", "unknown option '" + Arg + "'");
    } else if (App) {
      throw UsageError("symbols", "more than one program given");
    } else {
      App = Arg;
    }
  }
  if (!App)
    throw UsageError("symbols", "no Ruby program given");
  if (!Out)
    Out = std::filesystem::path(*App).stem().string() + ".symbols.json";
  RubySymbolsResult Result = writeRubySymbolMap(*App, UserMap, *Out);
  if (!Result.Written)
    throw InputError(Result.Problem);
  return ExitSuccess;
}

} // namespace spinelprof
