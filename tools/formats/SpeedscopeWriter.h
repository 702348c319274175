//===- SpeedscopeWriter.h - A Profile as speedscope JSON --------*- C++ -*-===//
//
// The speedscope file format (https://www.speedscope.app/file-format-schema.json):
// shared frames, one "sampled" profile per thread (one for a profile
// without threads), weights in nanoseconds when every sample has a weight,
// else sample counts (unit "none").
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_TOOLS_SPEEDSCOPEWRITER_H
#define SPINELPROF_TOOLS_SPEEDSCOPEWRITER_H

#include "Profile.h"

#include <string>

namespace spinelprof {

/// The whole speedscope JSON document. Exporter names spinel-prof's version.
std::string renderSpeedscope(const Profile &P, const std::string &Exporter);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_SPEEDSCOPEWRITER_H
