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
  flamegraph  write an interactive flamegraph page (one self-contained HTML file)
  convert  write a profile as pprof (gzipped profile.proto), speedscope, folded or .sprof
  diff     compare two profiles: a differential flamegraph page, or --text
  merge    sum profiles (fork children, several runs) into one
  run      build app.rb with Spinel, run it profiled, and report, in one step
  symbols  write app.rb's definition lines as a symbol map (for `cc --symbols`)
  help     show the help of a command: spinel-prof help COMMAND

options:
  -h, --help   show this help
  --version    show the version and the clang it works with

Build a profiled program with `spinel-prof cc` (or `spinel app.rb
--cc='spinel-prof cc'`), run it (it writes <program>.folded and
<program>.sprof), then `spinel-prof report <program>.sprof`. With
SPINEL_PROFILE_ALLOC=1 it also writes an allocation profile,
<program>.alloc.folded and .alloc.sprof (bytes and objects allocated, by
whole stack and type), which every command reads too.

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
  --all-frames     a frame with a push for every function, the runtime
                   header's tiny helpers too (SPINEL_PROFILE_FRAMES=all); by
                   default they get none, and the program's small leaves
                   are named by the sampled PC instead of a push
                   (SPINEL_PROFILE_LEAF_MAX_SIZE=0 turns that off;
                   docs/design.md, docs/performance.md)
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
gc, synthetic) and where it is defined. A .sprof's report starts with the
split of the samples: GC (a GC frame anywhere on the stack), runtime (the
leaf is a runtime helper or native code), Ruby (the leaf is a method or
block), other ([truncated]); then the Ruby frames through which the samples
entered the GC (the nearest user or block frame below the first GC frame).
An allocation profile (app.alloc.sprof) counts bytes allocated instead: its
report lists the allocated types (the "alloc TYPE" leaves) with bytes and
objects, and self is what a frame allocated itself.

PROFILE is a .sprof file; or a folded file (app.folded), in which case the
.sprof beside it (app.sprof) supplies kinds, locations and metadata if it
records that folded file's exact size (otherwise a warning, and the folded
file is read alone); or a folded-stacks file from any other tool; or `-`,
folded stacks on standard input.

options:
  --top N          print the N costliest frames (default 20; 0 prints all)
  --by self|total  order by self (default) or total samples
  --time FROM:TO   only the samples of that stretch of the run, in seconds
                   from its start (decimals allowed; either side may be
                   empty: 2:, :1.5): the timeline's events in [FROM, TO),
                   a bucketed event by its bucket's start; needs a .sprof
                   with a timeline (version 4)
  --thread ID      only the samples of one thread (a tid or a thread name;
                   in a merge of several runs, N:TID for run N's); the
                   header counts its samples, of all, and its own rate
  --focus REGEX    only the samples with a frame whose name matches REGEX
                   (ECMAScript syntax, matched anywhere in the name);
                   shares are then of those samples
  --collapse-recursion  a frame calling itself directly counts once (a;b;b;c
                   is read as a;b;c)
  --fold-runtime   a Ruby-only view: charge runtime frames and [native]
                   leaves to their Ruby caller; the table shows Ruby methods
                   and blocks and [GC]
  --all-frames     show every frame, runtime helpers included (default)
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

constexpr const char RunHelpText[] = R"(usage: spinel-prof run [--spinel PATH] [--symbols FILE] [--build-dir DIR]
                       [--hz N] APP.rb [--] [ARGS...]

Builds APP.rb with Spinel and the profiler (spinel APP.rb -o BIN
--cc='<this spinel-prof> cc'), runs BIN with ARGS, then writes APP.folded,
APP.sprof and APP.html (the flamegraph page) in the current directory and
prints the GC/runtime/Ruby split and the 10 costliest frames on standard
error. The program's standard input, output, error and exit status are its
own; a program killed by signal N makes run exit 128+N, and one line
names the signal (a program that crashes still leaves its profile, which
is reported). Everything after APP.rb is the program's (a first `--` is
dropped).

Spinel is --spinel PATH, else $SPINEL (each the `spinel` script or its
directory), else `spinel` on PATH. Spinel's output is shown when the build
fails; when it succeeds, only Spinel's warnings (its lines containing
"warning:", not the C compiler's about the generated C).

Frames carry APP.rb's lines: run reads APP.rb with Ruby's parser (as
`spinel-prof symbols` does) and passes the map to the compiler, merged
with --symbols FILE (whose entries win). Without Ruby, or when Ruby's
parser rejects APP.rb, one line says so and the build goes on without.

options (before APP.rb):
  --spinel PATH     the Spinel to build with
  --symbols FILE    a Spinel symbol map; its entries win over APP.rb's lines
  --build-dir DIR   build BIN in DIR and keep it (default: a temporary
                    directory, removed at the end)
  --hz N            sample N times per CPU-second (SPINEL_PROFILE_HZ; default
                    100: more samples for a short run, each costing ~30-150 us)
  -h, --help        show this help

Exit status: the program's; 127 when no Spinel is found; 125 when Spinel
fails to build APP.rb; 2 for bad usage.
)";

constexpr const char SymbolsHelpText[] = R"(usage: spinel-prof symbols APP.rb [-o OUT] [--symbols FILE]

Reads APP.rb with Ruby's parser (`ruby` on PATH, or $SPINEL_PROF_RUBY)
and writes OUT (default APP.symbols.json in the current directory): a
symbol map giving each C function Spinel generates for APP.rb (methods,
singleton methods, attribute accessors, procs, lambdas, fiber bodies,
main) its file and line in APP.rb. Names stay those of the naming rules.
Pass it on with `spinel-prof cc --symbols OUT`; `spinel-prof run` does
this by itself. With --symbols FILE, FILE's entries come first and win;
one without a file or line gets APP.rb's.

Exit status: 0 written; 1 when APP.rb cannot be read or Ruby's parser
rejects it, Ruby is not found, or FILE cannot be read; 2 for bad usage.
)";

std::string toolHelp() { return ToolHelpText; }

std::string commandHelp(std::string_view Command) {
  if (Command == "cc")
    return replaceAll(CcHelpText, "@CLANG@", SPINELPROF_CLANG);
  if (Command == "report")
    return ReportHelpText;
  if (Command == "run")
    return RunHelpText;
  if (Command == "symbols")
    return SymbolsHelpText;
  if (std::string Help = outputCommandHelp(Command); !Help.empty())
    return Help;
  if (Command == "help")
    return "usage: spinel-prof help [COMMAND]\n\nShows the help of COMMAND, or of spinel-prof.\n";
  return {};
}

std::string toolVersion() {
  return fmt::format("spinel-prof {} (clang {})\n", SPINELPROF_VERSION, SPINELPROF_CLANG);
}

} // namespace spinelprof
