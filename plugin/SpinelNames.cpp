//===- SpinelNames.cpp - Spinel C names to Ruby names and frame kinds -----===//

#include "SpinelNames.h"
#include "RuntimeNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"


using namespace llvm;

namespace spinelprof {

namespace {

/// Spinel's spelling of an operator method after the doubled underscore
/// (`sp_Geo_Vec__plus`), or null when \p Token is not one.
const char *operatorFor(StringRef Token) {
  return StringSwitch<const char *>(Token)
      .Case("plus", "+")
      .Case("minus", "-")
      .Case("mul", "*")
      .Case("div", "/")
      .Case("mod", "%")
      .Case("pow", "**")
      .Case("eq_eq", "==")
      .Case("neq", "!=")
      .Case("cmp", "<=>")
      .Case("lt", "<")
      .Case("gt", ">")
      .Case("le", "<=")
      .Case("ge", ">=")
      .Case("lshift", "<<")
      .Case("rshift", ">>")
      .Case("aref", "[]")
      .Case("aset", "[]=")
      .Case("and", "&")
      .Case("or", "|")
      .Case("xor", "^")
      .Case("uminus", "-@")
      .Case("uplus", "+@")
      .Case("not", "!")
      .Case("match", "=~")
      .Default(nullptr);
}

bool startsWithUpper(StringRef S) { return !S.empty() && isUpper(S.front()); }

/// `_p` -> `?`, `_bang` -> `!`, `_eq` -> `=`; only with a name before the
/// suffix, so that methods called `p` or `eq` keep their names.
std::string applyMethodSuffix(ArrayRef<StringRef> Tokens) {
  std::string Name = join(Tokens.begin(), Tokens.end(), "_");
  if (Tokens.size() < 2)
    return Name;
  StringRef Last = Tokens.back();
  const char *Suffix = StringSwitch<const char *>(Last)
                           .Case("p", "?")
                           .Case("bang", "!")
                           .Case("eq", "=")
                           .Default(nullptr);
  if (!Suffix)
    return Name;
  return join(Tokens.begin(), Tokens.end() - 1, "_") + Suffix;
}

/// \p File's path with its directory applied: clang records the main file
/// as (name, directory) but the same file's functions as (absolute name, "")
/// when the compile command names it by an absolute path.
std::string fullPath(const DIFile &File) {
  SmallString<256> Path;
  if (sys::path::is_absolute(File.getFilename()))
    Path = File.getFilename();
  else
    sys::path::append(Path, File.getDirectory(), File.getFilename());
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

bool isAllDigits(StringRef S) {
  return !S.empty() && S.find_first_not_of("0123456789") == StringRef::npos;
}

} // namespace

DefinitionSite getDefinitionSite(const Function &F,
                                 bool CompilingRuntimeLibrary) {
  DefinitionSite Site = getSourceDefinitionSite(F);
  if (CompilingRuntimeLibrary)
    Site.IsProgramOwn = false;
  return Site;
}

DefinitionSite getSourceDefinitionSite(const Function &F) {
  DefinitionSite Site;
  const DISubprogram *SP = F.getSubprogram();
  if (!SP) {
    Site.File = F.getParent()->getSourceFileName();
    return Site;
  }
  Site.File = SP->getFilename().str();
  Site.Line = SP->getLine();
  // #line directives name the .rb file; it is the program's own code even
  // though it is not the compile unit's file.
  if (StringRef(Site.File).ends_with(".rb"))
    return Site;
  const DICompileUnit *CU = SP->getUnit();
  const DIFile *MainFile = CU ? CU->getFile() : nullptr;
  if (!MainFile)
    return Site;
  const DIFile *File = SP->getFile();
  Site.IsProgramOwn =
      File == MainFile || (File && fullPath(*File) == fullPath(*MainFile));
  return Site;
}

bool isGCCallbackName(StringRef CName) {
  if (CName.ends_with("_gc_scan") || CName == "sp_gc_mark")
    return true;
  // The GC scanner of a proc's captures: _proc_cap_scan_N.
  return CName.consume_front("_proc_cap_scan_") && isAllDigits(CName);
}

bool isGCFunctionName(StringRef CName) {
  return CName.starts_with("sp_gc_") || CName == "sp_str_sweep" ||
         isGCCallbackName(CName);
}

std::string rubyMethodName(StringRef CName) {
  if (!CName.consume_front("sp_") || CName.empty())
    return "";

  // Operators follow a doubled underscore: sp_Geo_Vec__plus.
  StringRef Owner = CName, Operator;
  size_t Doubled = CName.find("__");
  if (Doubled != StringRef::npos) {
    Owner = CName.take_front(Doubled);
    Operator = CName.drop_front(Doubled + 2);
  }

  SmallVector<StringRef, 8> Tokens;
  Owner.split(Tokens, '_', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (Owner.empty())
    Tokens.clear();
  if (is_contained(Tokens, StringRef()))
    return "";

  size_t NumClass = 0;
  while (NumClass < Tokens.size() && startsWithUpper(Tokens[NumClass]))
    ++NumClass;
  std::string Class =
      NumClass ? join(Tokens.begin(), Tokens.begin() + NumClass, "::")
               : std::string("Object");
  ArrayRef<StringRef> Method = ArrayRef<StringRef>(Tokens).drop_front(NumClass);

  if (!Operator.empty()) {
    const char *Op = operatorFor(Operator);
    if (!Op || !Method.empty())
      return "";
    return Class + "#" + Op;
  }

  bool Singleton = false;
  if (NumClass && !Method.empty() && Method.front() == "cls") {
    Singleton = true;
    Method = Method.drop_front();
  }
  if (Method.empty())
    return "";
  // The allocating constructor is a singleton method even without `cls`.
  if (NumClass && Method.size() == 1 && Method.front() == "new")
    Singleton = true;
  return Class + (Singleton ? "." : "#") + applyMethodSuffix(Method);
}

std::string blockName(StringRef CName) {
  static const struct {
    const char *Prefix;
    const char *Display;
  } Blocks[] = {{"_sp_proc_fn_", "proc "},
                {"_lam_", "lambda "},
                {"_fiber_body_", "fiber "}};
  for (const auto &B : Blocks) {
    StringRef Rest = CName;
    if (Rest.consume_front(B.Prefix) && isAllDigits(Rest))
      return (B.Display + Rest).str();
  }
  return "";
}

FrameIdentity identifyFrame(StringRef CName, bool IsProgramOwn) {
  if (isGCFunctionName(CName))
    return {CName.str(), SPINELPROF_KIND_GC};
  if (CName == "main")
    return {"<main>", SPINELPROF_KIND_USER};
  std::string Block = blockName(CName);
  if (!Block.empty())
    return {std::move(Block), SPINELPROF_KIND_BLOCK};
  if (!IsProgramOwn) {
    std::string Ruby = runtimeRubyName(CName);
    return {Ruby.empty() ? CName.str() : std::move(Ruby), SPINELPROF_KIND_RUNTIME};
  }
  std::string Ruby = rubyMethodName(CName);
  if (!Ruby.empty())
    return {std::move(Ruby), SPINELPROF_KIND_USER};
  return {CName.str(), SPINELPROF_KIND_USER};
}

spinelprof_frame_kind kindOfMappedFrame(StringRef CName, StringRef RubyName) {
  if (isGCFunctionName(CName))
    return SPINELPROF_KIND_GC;
  if (RubyName.starts_with("block in") || RubyName.starts_with("lambda in") ||
      RubyName.starts_with("fiber in"))
    return SPINELPROF_KIND_BLOCK;
  return SPINELPROF_KIND_USER;
}

} // namespace spinelprof
