//===- SpinelLocator.cpp - Finding the Spinel compiler --------------------===//
#include "SpinelLocator.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <unistd.h>

namespace spinelprof {

namespace {

bool isExecutableFile(const std::filesystem::path &P) {
  std::error_code EC;
  return std::filesystem::is_regular_file(P, EC) && access(P.c_str(), X_OK) == 0;
}

/// The script that \p Given names: itself, or `spinel` inside it when it is
/// a directory; empty when neither is an executable file.
std::string scriptAt(const std::string &Given) {
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::path P = Given;
  if (fs::is_directory(P, EC))
    P /= "spinel";
  if (!isExecutableFile(P))
    return {};
  fs::path Absolute = fs::absolute(P, EC);
  return EC ? P.string() : Absolute.lexically_normal().string();
}

} // namespace

std::string findOnPath(const std::string &Name) {
  const char *Path = std::getenv("PATH");
  std::string Dirs = Path ? Path : "";
  size_t Start = 0;
  while (Start <= Dirs.size()) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    Start = End + 1;
    std::filesystem::path Candidate = std::filesystem::path(Dir.empty() ? "." : Dir) / Name;
    if (isExecutableFile(Candidate))
      return Candidate.string();
  }
  return "";
}

SpinelSearch locateSpinel(const std::optional<std::string> &Option) {
  SpinelSearch Search;
  if (Option) {
    Search.Script = scriptAt(*Option);
    if (Search.Script.empty())
      Search.Tried.push_back("--spinel " + *Option + " (no executable spinel there)");
    return Search;
  }
  if (const char *Env = std::getenv("SPINEL"); Env && *Env) {
    Search.Script = scriptAt(Env);
    if (Search.Script.empty())
      Search.Tried.push_back(std::string("$SPINEL=") + Env + " (no executable spinel there)");
    return Search;
  }
  Search.Tried.push_back("$SPINEL (not set)");
  std::string OnPath = findOnPath("spinel");
  if (!OnPath.empty()) {
    Search.Script = scriptAt(OnPath);
    return Search;
  }
  Search.Tried.push_back("`spinel` on $PATH (not found)");
  return Search;
}

} // namespace spinelprof
