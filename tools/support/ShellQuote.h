//===- ShellQuote.h - Arguments written back as a shell would read them -*- C++ -*-===//
#ifndef SPINELPROF_TOOLS_SHELLQUOTE_H
#define SPINELPROF_TOOLS_SHELLQUOTE_H

#include <string>
#include <vector>

namespace spinelprof {

/// Quotes Arg for a POSIX shell; plain words stay unquoted so command lines
/// in reports and verbose output read naturally.
std::string shellQuote(const std::string &Arg);

/// Quotes each argument and joins them with spaces.
std::string shellJoin(const std::vector<std::string> &Args);

} // namespace spinelprof

#endif // SPINELPROF_TOOLS_SHELLQUOTE_H
