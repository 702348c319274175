//===- OutputHelpText.cpp - Help of flamegraph, convert, diff, merge ------===//
//
// Kept apart from HelpText.cpp only so that two people can add commands at
// once; commandHelp() asks here first.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

namespace spinelprof {

namespace {

#define SPINELPROF_PROFILE_ARG                                                   \
  "PROFILE is a .sprof, a folded file (with its .sprof beside it when that\n"    \
  "matches), any other tool's folded stacks (perf script | stackcollapse-perf,\n" \
  "inferno, ...; a malformed line is an error naming the file and line), or\n"  \
  "`-` for folded stacks on standard input.\n"

#define SPINELPROF_SELECTION_OPTIONS                                             \
  "  --time FROM:TO   only the stretch of the run from FROM to TO seconds\n"    \
  "                   after its start (2:, :1.5, 0.5:3; events in [FROM, TO),\n" \
  "                   a bucketed one by its bucket's start); needs a timeline\n" \
  "  --thread ID      only the samples of one thread (tid or thread name; in\n"   \
  "                   a merge of several runs, N:TID for run N's)\n"            \
  "  --focus REGEX    only the samples with a frame whose name matches REGEX\n" \
  "  --collapse-recursion  direct recursion (a;b;b;c) counts once (a;b;c)\n"

constexpr const char FlamegraphHelpText[] =
    "usage: spinel-prof flamegraph PROFILE [-o OUT.html] [--title TEXT] [--icicle]\n"
    "                              [--time FROM:TO] [--thread ID] [--focus REGEX]\n"
    "                              [--collapse-recursion]\n"
    "\n"
    "Writes one self-contained HTML file (no network, no external scripts or\n"
    "fonts): a flamegraph with the root at the bottom (--icicle: at the top).\n"
    "Click a frame to zoom, Reset or Escape to go back; hover for name,\n"
    "samples, share of all samples and of the parent, kind, C name and .rb\n"
    "file:line; search (a regex) highlights matches and shows their share;\n"
    "colours by kind with a legend; a switch folds runtime frames into their\n"
    "Ruby callers (as `report --fold-runtime`); \"Callers of selected\" shows\n"
    "who calls a frame, summed over the whole graph; a thread selector when\n"
    "the profile has threads.\n"
    "\n" SPINELPROF_PROFILE_ARG
    "\n"
    "options:\n"
    "  -o FILE          the page (default: standard output; `-` too); a file is\n"
    "                   written completely or not at all, a device or FIFO in place\n"
    "  --title TEXT     the page's title (default: the PROFILE path)\n"
    "  --icicle         start with the root at the top\n" SPINELPROF_SELECTION_OPTIONS
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input or I/O error, 2 bad usage.\n";

constexpr const char ConvertHelpText[] =
    "usage: spinel-prof convert PROFILE --to FORMAT [-o OUT] [--fold-runtime]\n"
    "                           [--time FROM:TO] [--thread ID] [--focus REGEX]\n"
    "                           [--collapse-recursion]\n"
    "\n"
    "Writes PROFILE in another format (docs/formats.md):\n"
    "  pprof       gzipped profile.proto, for `go tool pprof` and continuous\n"
    "              profilers (Pyroscope, Parca, Grafana, Cloud Profiler):\n"
    "              sample types samples/count and, when every sample has a\n"
    "              weight, cpu/nanoseconds; thread_id/thread_name labels\n"
    "  speedscope  speedscope's file format: shared frames, one sampled\n"
    "              profile per thread; with a timeline, its samples in time\n"
    "              order at their times from the run's start (Time Order\n"
    "              shows the phases; gaps are idle)\n"
    "  folded      folded stacks (threads merged)\n"
    "  sprof       spinelprof's own JSON profile\n"
    "\n" SPINELPROF_PROFILE_ARG
    "\n"
    "options:\n"
    "  --to FORMAT      pprof, speedscope, folded or sprof (required)\n"
    "  -o FILE          the output (default: standard output; `-` too; pprof,\n"
    "                   being binary, is not written to a terminal); a file is\n"
    "                   written completely or not at all, a device or FIFO in place\n"
    "  --fold-runtime   charge runtime frames to their Ruby caller first\n" SPINELPROF_SELECTION_OPTIONS
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input or I/O error, 2 bad usage.\n";

constexpr const char DiffHelpText[] =
    "usage: spinel-prof diff BEFORE AFTER [-o OUT.html] [--title TEXT] [--icicle]\n"
    "       spinel-prof diff BEFORE AFTER --text [--top N] [--by self|total] [-o FILE]\n"
    "\n"
    "Compares two profiles by each frame's share of its profile's samples, so\n"
    "runs of different lengths compare fairly. Frames are matched by name.\n"
    "\n"
    "The page is a differential flamegraph: the shape (widths) of AFTER, each\n"
    "frame red where its share of all samples grew and blue where it shrank\n"
    "(stronger for larger changes; a path that BEFORE lacks counts as 0%),\n"
    "with the before and after shares in the tooltip. --text prints a table of\n"
    "the frames whose self (or --by total: total) share changed most.\n"
    "\n"
    "BEFORE and AFTER are profiles as for `spinel-prof report` (at most one `-`);\n"
    "--time and the other selections apply to both.\n"
    "\n"
    "options:\n"
    "  -o FILE          the output (default: standard output)\n"
    "  --text           the movers table instead of the page\n"
    "  --top N          with --text: rows (default 20; 0 prints all)\n"
    "  --by self|total  with --text: rank by the change of self (default) or total\n"
    "  --title TEXT     the page's title\n"
    "  --icicle         start the page with the root at the top\n" SPINELPROF_SELECTION_OPTIONS
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input or I/O error, 2 bad usage.\n";

constexpr const char MergeHelpText[] =
    "usage: spinel-prof merge PROFILE... [-o OUT] [--to sprof|folded]\n"
    "\n"
    "Sums profiles, e.g. a program's fork children (app.%p.sprof) or several\n"
    "runs. Each profile is a run of its own, kept apart: its command, pid,\n"
    "start and times are kept, and its threads are its own (run N's thread\n"
    "TID is N:TID). Frames are the same when name, C name, kind, file and\n"
    "line are; samples when run, thread and stack are. Counts, weights,\n"
    "dropped, truncated and CPU time are summed; the top-level command and\n"
    "start are the first profile's; the duration is the longest. Each run\n"
    "keeps its timeline (a .sprof of version 4 is written when one has).\n"
    "\n"
    "Each PROFILE is as for `spinel-prof report` (at most one `-`).\n"
    "\n"
    "options:\n"
    "  -o FILE          the output (default: standard output)\n"
    "  --to FORMAT      sprof or folded; default sprof when -o ends in .sprof,\n"
    "                   else folded\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input or I/O error, 2 bad usage.\n";

} // namespace

std::string outputCommandHelp(std::string_view Command) {
  if (Command == "flamegraph")
    return FlamegraphHelpText;
  if (Command == "convert")
    return ConvertHelpText;
  if (Command == "diff")
    return DiffHelpText;
  if (Command == "merge")
    return MergeHelpText;
  return {};
}

} // namespace spinelprof
