//===- NativeNames.cpp - Naming native addresses from debug files ---------===//
#include "NativeNames.h"
#include "ElfSymbols.h"
#include "FileIO.h"
#include "ProfileTransforms.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <cxxabi.h>
#include <cstdlib>

#include <map>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <tuple>

namespace spinelprof {

namespace {

bool isFile(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

std::string directoryOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

/// Finds and reads the debug file of one object; remembers the answer.
class DebugFiles {
public:
  DebugFiles(const std::string &DebugDir, const std::function<void(const std::string &)> &Warn)
      : DebugDir(DebugDir), Warn(Warn) {}

  /// The symbols of Object's debug file, or null when there is none usable.
  const ElfSymbols *symbolsFor(const std::string &Object, const std::string &BuildId) {
    auto [It, Inserted] = Cache.try_emplace({Object, BuildId});
    if (Inserted)
      It->second = find(Object, BuildId);
    return It->second.get();
  }

private:
  std::unique_ptr<ElfSymbols> find(const std::string &Object, const std::string &BuildId) {
    if (BuildId.size() > 2) {
      std::string ById = fmt::format("{}/.build-id/{}/{}.debug", DebugDir, BuildId.substr(0, 2),
                                     BuildId.substr(2));
      if (isFile(ById))
        return load(ById, BuildId);
    }
    // The object's .gnu_debuglink, where gdb looks for it.
    if (!isFile(Object))
      return nullptr;
    std::optional<ElfSymbols> Stripped = read(Object);
    if (!Stripped || Stripped->debugLink().empty())
      return nullptr;
    std::string Dir = directoryOf(Object);
    for (const std::string &Candidate :
         {Dir + "/" + Stripped->debugLink(), Dir + "/.debug/" + Stripped->debugLink(),
          DebugDir + Dir + "/" + Stripped->debugLink()})
      if (isFile(Candidate))
        return load(Candidate, BuildId.empty() ? Stripped->buildId() : BuildId);
    return nullptr;
  }

  std::optional<ElfSymbols> read(const std::string &Path) {
    try {
      return ElfSymbols::parse(readWholeFile(Path), Path);
    } catch (const InputError &E) {
      Warn(fmt::format("cannot name native addresses from {}", E.what()));
      return std::nullopt;
    }
  }

  std::unique_ptr<ElfSymbols> load(const std::string &Path, const std::string &BuildId) {
    std::optional<ElfSymbols> Symbols = read(Path);
    if (!Symbols)
      return nullptr;
    if (!BuildId.empty() && !Symbols->buildId().empty() && Symbols->buildId() != BuildId) {
      Warn(fmt::format("not naming native addresses from {}: its build-id {} is not the "
                       "profiled object's {}",
                       Path, Symbols->buildId(), BuildId));
      return nullptr;
    }
    if (!Symbols->hasSymtab()) {
      Warn(fmt::format("cannot name native addresses from {}: it has no .symtab", Path));
      return nullptr;
    }
    return std::make_unique<ElfSymbols>(std::move(*Symbols));
  }

  std::string DebugDir;
  const std::function<void(const std::string &)> &Warn;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<ElfSymbols>> Cache;
};

/// Makes equal frames one (by name, C name, kind, file and line) and sums
/// the samples that thereby share a stack.
void mergeEqualFrames(Profile &P) {
  std::map<std::tuple<std::string, std::string, int, std::string, uint32_t>, uint32_t> Index;
  std::vector<uint32_t> NewIndex(P.Frames.size());
  std::vector<Frame> Frames;
  for (size_t I = 0; I < P.Frames.size(); ++I) {
    const Frame &F = P.Frames[I];
    auto [It, Inserted] = Index.try_emplace(
        std::make_tuple(F.Name, F.CName, int(F.Kind), F.File, F.Line), uint32_t(Frames.size()));
    if (Inserted)
      Frames.push_back(F);
    NewIndex[I] = It->second;
  }
  if (Frames.size() == P.Frames.size())
    return;
  P.Frames = std::move(Frames);
  for (Sample &S : P.Samples)
    for (uint32_t &F : S.Stack)
      F = NewIndex[F];
  P = normalizeProfile(P);
}

} // namespace

void demangleNativeNames(Profile &P) {
  const size_t Skip = NativePrefix.size();
  for (Frame &F : P.Frames) {
    if (F.Name.compare(0, Skip, NativePrefix) != 0 || F.Name.compare(Skip, 2, "_Z") != 0)
      continue;
    int Status = 0;
    char *Plain = abi::__cxa_demangle(F.Name.c_str() + Skip, nullptr, nullptr, &Status);
    if (Status == 0 && Plain) {
      if (F.CName.empty())
        F.CName = F.Name.substr(Skip);
      F.Name = std::string(NativePrefix) + Plain;
    }
    std::free(Plain);
  }
}

void nameNativeFrames(Profile &P, const std::function<void(const std::string &)> &Warn,
                      const std::string &DebugDir) {
  DebugFiles Files(DebugDir, Warn);
  bool Any = false;
  for (Frame &F : P.Frames) {
    if (!F.Native)
      continue;
    Any = true;
    if (const ElfSymbols *Symbols = Files.symbolsFor(F.Native->Object, F.Native->BuildId)) {
      std::string_view Name = Symbols->functionAt(F.Native->Address);
      if (!Name.empty()) {
        F.CName = std::string(Name);
        F.Name = std::string(NativePrefix) + F.CName;
      }
    }
    F.Native.reset();
  }
  if (Any)
    mergeEqualFrames(P);
}

} // namespace spinelprof
