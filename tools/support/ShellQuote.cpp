//===- ShellQuote.cpp - Arguments written back as a shell would read them -===//
#include "ShellQuote.h"

namespace spinelprof {

std::string shellQuote(const std::string &Arg) {
  static const char Plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789_-+=.,/:@%";
  if (!Arg.empty() && Arg.find_first_not_of(Plain) == std::string::npos)
    return Arg;
  std::string Quoted = "'";
  for (char C : Arg) {
    if (C == '\'')
      Quoted += "'\\''";
    else
      Quoted += C;
  }
  return Quoted + "'";
}

std::string shellJoin(const std::vector<std::string> &Args) {
  std::string Line;
  for (const std::string &Arg : Args) {
    if (!Line.empty())
      Line += ' ';
    Line += shellQuote(Arg);
  }
  return Line;
}

} // namespace spinelprof
