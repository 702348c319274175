//===- PprofWriter.h - A Profile as gzipped profile.proto -------*- C++ -*-===//
//
// The format of github.com/google/pprof/proto/profile.proto, which pprof,
// Pyroscope, Parca, Grafana and Cloud Profiler ingest. One function and one
// location per frame (we know definition sites, not return addresses), so
// a location's line is its function's start line.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_PPROFWRITER_H
#define SPINELPROF_TOOLS_PPROFWRITER_H

#include "Profile.h"

#include <string>

namespace spinelprof {

/// The uncompressed profile.proto message: sample types samples/count and,
/// when every sample has a weight, cpu/nanoseconds (wall/nanoseconds for a
/// wall-mode profile); thread_id/thread_name labels; period, start time,
/// duration; the command line as a comment.
std::string encodePprof(const Profile &P);

/// encodePprof, gzipped, as pprof files are.
std::string renderPprof(const Profile &P);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_PPROFWRITER_H
