//===- HelpText.cpp - What --help and --version print ---------------------===//
//
// All help texts in one place, so `spinel-prof help CMD`, `spinel-prof CMD
// --help` and docs/usage.md are easy to keep in step.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <fmt/format.h>

#ifndef SPINELPROF_CLANG
#error "SPINELPROF_CLANG must be defined by the build (tools/CMakeLists.txt)"
#endif
#ifndef SPINELPROF_VERSION
#error "SPINELPROF_VERSION must be defined by the build (tools/CMakeLists.txt)"
#endif

namespace spinelprof {

namespace {

constexpr const char ToolHelpText[] = R"(usage: spinel-prof COMMAND [ARGS...]

A sampling profiler for Ruby programs compiled to C by Spinel.

commands:
  cc       compile and link like clang, adding the profiler (a drop-in C compiler)
  report   print a profile's metadata and its costliest frames
  help     show the help of a command: spinel-prof help COMMAND

options:
  -h, --help   show this help
  --version    show the version and the clang it works with

Build a profiled program with `spinel-prof cc` (or `spinel app.rb
--cc='spinel-prof cc'`), run it (it writes <program>.folded and
<program>.sprof), then `spinel-prof report <program>.sprof`.

Exit status: 0 success, 1 bad input or I/O error, 2 bad usage; cc exits with
the compiler's own status.
)";

constexpr const char CcHelpText[] = R"(usage: spinel-prof cc [--symbols FILE] [--include REGEX] [--exclude REGEX] [--]
                      CLANG-ARGS...

A drop-in C compiler that builds a profiled program. It runs the clang the
plugin was built for with CLANG-ARGS, and
  - when it compiles C, C++, Objective-C or LLVM IR (not with -E, -M, -MM or
    -fsyntax-only) adds, before CLANG-ARGS, -fpass-plugin=<lib>/SpinelProf.so
    and, unless CLANG-ARGS choose a -g level, -gline-tables-only (it does not
    change the code; it tells the plugin where each function is defined);
  - when it links an executable (no -c, -S, -E, -M, -MM, -fsyntax-only,
    -shared or -r) appends <lib>/libspinelprof_rt.a after all of CLANG-ARGS,
    so it is searched after the program's own libraries.
Everything else passes through unchanged. A shared library (-shared) gets
instrumented code but no runtime: the executable that loads it links the
runtime once. <lib> is the lib/ directory beside spinel-prof's bin/.

Use it wherever a C compiler is expected:
  spinel app.rb --cc='spinel-prof cc'
  make CC='spinel-prof cc'
  spinel-prof cc -O2 -Ilib app.c lib/libspinel_rt.a -lm -o app

options (only before the first CLANG-ARG; `--` ends them):
  --symbols FILE   Spinel symbol map (app.symbols.json) that names functions;
                   passed to the plugin as SPINEL_PROFILE_SYMBOLS=<absolute FILE>
  --include REGEX  instrument only the C functions whose whole name matches
                   REGEX, a POSIX extended regex (SPINEL_PROFILE_INCLUDE)
  --exclude REGEX  do not instrument the C functions whose whole name
                   matches REGEX; wins over --include (SPINEL_PROFILE_EXCLUDE)
  -h, --help       show this help (`spinel-prof cc -- --help` asks clang)

environment:
  SPINEL_PROF_CLANG    the compiler to run instead of @CLANG@
  SPINEL_PROF_VERBOSE  if set and not 0, print the final command to stderr

Exit status: the compiler's own; 1 if the plugin, runtime, --symbols file
or compiler is missing; 2 for a bad spinel-prof option.
)";

constexpr const char ReportHelpText[] = R"(usage: spinel-prof report PROFILE [--top N] [--by self|total] [-o FILE]

Prints the profile's metadata (command, start time, duration, mode, rates,
samples, dropped, truncated, threads) and a table of the frames that cost
the most:
  self    samples in which the frame was running (the leaf of the stack)
  total   samples in which the frame was on the stack, counted once per
          stack even when it recurses
each with its share of all samples, the frame's kind (user, block, runtime,
gc, synthetic) and where it is defined.

PROFILE is a .sprof file; or a folded file (app.folded), in which case the
.sprof beside it (app.sprof) supplies kinds, locations and metadata if it
records that folded file's exact size (otherwise a warning, and the folded
file is read alone); or a folded-stacks file from any other tool; or `-`,
folded stacks on standard input.

options:
  --top N          print the N costliest frames (default 20; 0 prints all)
  --by self|total  order by self (default) or total samples
  -o FILE          write the report to FILE instead of standard output
                   (the file is complete or not written at all)
  -h, --help       show this help

Exit status: 0 success, 1 bad input or I/O error, 2 bad usage.
)";

std::string replaceAll(std::string Text, std::string_view From, std::string_view To) {
  for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To);
  return Text;
}

} // namespace

std::string toolHelp() { return ToolHelpText; }

std::string commandHelp(std::string_view Command) {
  if (Command == "cc")
    return replaceAll(CcHelpText, "@CLANG@", SPINELPROF_CLANG);
  if (Command == "report")
    return ReportHelpText;
  if (Command == "help")
    return "usage: spinel-prof help [COMMAND]\n\nShows the help of COMMAND, or of spinel-prof.\n";
  return {};
}

std::string toolVersion() {
  return fmt::format("spinel-prof {} (clang {})\n", SPINELPROF_VERSION, SPINELPROF_CLANG);
}

} // namespace spinelprof
