//===- SymbolMap.cpp - Spinel's C symbol to Ruby name map ----------------===//

#include "SymbolMap.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace spinelprof {

namespace {

/// Builds a SymbolMap from a parsed JSON value, collecting the first problem.
class SymbolMapReader {
public:
  SymbolMapReader(StringRef Source, StringMap<SymbolMapEntry> &Entries)
      : Source(Source), Entries(Entries) {}

  Error read(const json::Value &Root);

private:
  Error readObject(const json::Object &Object);
  Error readArray(const json::Array &Array);
  Error readRecord(StringRef Where, StringRef CName, const json::Object &Rec,
                   bool KeyedByCName);
  Error add(StringRef Where, StringRef CName, SymbolMapEntry Entry);
  Error problem(const Twine &Message) const {
    return createStringError(inconvertibleErrorCode(),
                             Source + ": " + Message);
  }

  StringRef Source;
  StringMap<SymbolMapEntry> &Entries;
};

/// The value of the first of \p Keys that \p Rec has (its key in
/// \p FoundKey), or null.
const json::Value *findKey(const json::Object &Rec, ArrayRef<StringRef> Keys,
                           StringRef &FoundKey) {
  for (StringRef Key : Keys)
    if (const json::Value *V = Rec.get(Key)) {
      FoundKey = Key;
      return V;
    }
  return nullptr;
}

Error SymbolMapReader::read(const json::Value &Root) {
  if (const json::Object *Object = Root.getAsObject()) {
    // A wrapper {"symbols": [...] or {...}} around either shape.
    const json::Value *Wrapped = Object->get("symbols");
    if (Object->size() == 1 && Wrapped &&
        (Wrapped->getAsArray() || Wrapped->getAsObject()))
      return read(*Wrapped);
    return readObject(*Object);
  }
  if (const json::Array *Array = Root.getAsArray())
    return readArray(*Array);
  return problem("expected a JSON object or array at the top level");
}

Error SymbolMapReader::readObject(const json::Object &Object) {
  // Sorted, so that the first problem reported does not depend on hashing.
  std::vector<const json::Object::value_type *> Sorted;
  for (const auto &KV : Object)
    Sorted.push_back(&KV);
  llvm::sort(Sorted, [](auto *A, auto *B) { return A->first < B->first; });

  for (const auto *KV : Sorted) {
    StringRef CName = KV->first;
    std::string Where = ("key \"" + CName + "\"").str();
    if (std::optional<StringRef> Ruby = KV->second.getAsString()) {
      if (Error E = add(Where, CName, {Ruby->str(), "", std::nullopt}))
        return E;
      continue;
    }
    const json::Object *Rec = KV->second.getAsObject();
    if (!Rec)
      return problem(Where + ": expected a string (the Ruby name) or an "
                             "object with \"name\" or \"ruby\"");
    if (Error E = readRecord(Where, CName, *Rec, /*KeyedByCName=*/true))
      return E;
  }
  return Error::success();
}

Error SymbolMapReader::readArray(const json::Array &Array) {
  for (size_t I = 0; I < Array.size(); ++I) {
    std::string Where = ("entry " + Twine(I)).str();
    const json::Object *Rec = Array[I].getAsObject();
    if (!Rec)
      return problem(Where + ": expected an object with \"c\" and \"ruby\"");
    if (Error E = readRecord(Where, "", *Rec, /*KeyedByCName=*/false))
      return E;
  }
  return Error::success();
}

Error SymbolMapReader::readRecord(StringRef Where, StringRef CName,
                                  const json::Object &Rec, bool KeyedByCName) {
  StringRef Key;
  if (!KeyedByCName) {
    const json::Value *C = findKey(Rec, {"c", "cname", "symbol"}, Key);
    if (!C)
      return problem(Where + ": missing the C symbol (\"c\", \"cname\" or "
                             "\"symbol\")");
    std::optional<StringRef> S = C->getAsString();
    if (!S || S->empty())
      return problem(Where + ": \"" + Key + "\" must be a non-empty string");
    CName = *S;
  }

  SymbolMapEntry Entry;
  // A record with "file" or "line" and no name is a location-only entry:
  // the frame keeps the name the rules give.
  const json::Value *Ruby = findKey(Rec, {"ruby", "name"}, Key);
  if (!Ruby && !Rec.get("file") && !Rec.get("line"))
    return problem(Where + ": missing the Ruby name (\"ruby\" or \"name\") "
                           "or a location (\"file\", \"line\")");
  if (Ruby) {
    std::optional<StringRef> RubyName = Ruby->getAsString();
    if (!RubyName || RubyName->empty())
      return problem(Where + ": \"" + Key + "\" must be a non-empty string");
    Entry.RubyName = RubyName->str();
  }

  if (const json::Value *File = Rec.get("file")) {
    std::optional<StringRef> S = File->getAsString();
    if (!S)
      return problem(Where + ": \"file\" must be a string");
    Entry.File = S->str();
  }
  if (const json::Value *Line = Rec.get("line")) {
    std::optional<int64_t> N = Line->getAsInteger();
    if (!N || *N < 0 || *N > UINT32_MAX)
      return problem(Where + ": \"line\" must be a non-negative integer");
    Entry.Line = static_cast<unsigned>(*N);
  }
  return add(Where, CName, std::move(Entry));
}

Error SymbolMapReader::add(StringRef Where, StringRef CName,
                           SymbolMapEntry Entry) {
  auto [It, Inserted] = Entries.try_emplace(CName, Entry);
  if (Inserted || It->second.RubyName == Entry.RubyName)
    return Error::success();
  return problem(Where + ": conflicting names for C symbol \"" + CName +
                 "\": \"" + It->second.RubyName + "\" and \"" +
                 Entry.RubyName + "\"");
}

/// One member of the top-level object, as raw text.
struct RawMember {
  std::string Key;
  StringRef Value;
  size_t KeyOffset;
};

/// The end of the JSON string token starting at \p Pos (its opening quote).
size_t skipString(StringRef Text, size_t Pos) {
  for (++Pos; Pos < Text.size(); ++Pos) {
    if (Text[Pos] == '\\')
      ++Pos;
    else if (Text[Pos] == '"')
      return Pos + 1;
  }
  return Text.size();
}

/// The members of \p Text's top-level object in written order, repeated
/// keys included, which json::parse keeps only one of. \p Text must be
/// valid JSON (json::parse accepted it).
std::vector<RawMember> topLevelMembers(StringRef Text) {
  std::vector<RawMember> Members;
  auto SkipSpace = [&](size_t Pos) {
    while (Pos < Text.size() && isSpace(Text[Pos]))
      ++Pos;
    return Pos;
  };
  size_t Pos = SkipSpace(0);
  if (Pos >= Text.size() || Text[Pos] != '{')
    return Members;
  Pos = SkipSpace(Pos + 1);
  while (Pos < Text.size() && Text[Pos] == '"') {
    size_t KeyEnd = skipString(Text, Pos);
    Expected<json::Value> Key = json::parse(Text.slice(Pos, KeyEnd));
    if (!Key || !Key->getAsString()) {
      consumeError(Key.takeError());
      return Members;
    }
    size_t KeyOffset = Pos;
    Pos = SkipSpace(SkipSpace(KeyEnd) + 1); // past ':'
    size_t ValueStart = Pos;
    int Depth = 0;
    for (; Pos < Text.size(); ++Pos) {
      char C = Text[Pos];
      if (C == '"') {
        Pos = skipString(Text, Pos) - 1;
      } else if (C == '{' || C == '[') {
        ++Depth;
      } else if (C == '}' || C == ']') {
        if (Depth-- == 0)
          break;
      } else if (C == ',' && Depth == 0) {
        break;
      }
    }
    Members.push_back({Key->getAsString()->str(),
                       Text.slice(ValueStart, Pos).rtrim(), KeyOffset});
    if (Pos >= Text.size() || Text[Pos] == '}')
      break;
    Pos = SkipSpace(Pos + 1); // past ','
  }
  return Members;
}

/// "line:column" (1-based) of \p Offset in \p Text.
std::string positionOf(StringRef Text, size_t Offset) {
  StringRef Before = Text.take_front(Offset);
  size_t Line = Before.count('\n') + 1;
  size_t LineStart = Before.rfind('\n');
  size_t Column = Offset - (LineStart == StringRef::npos ? 0 : LineStart + 1);
  return (Twine(Line) + ":" + Twine(Column + 1)).str();
}

/// The Ruby name a raw member value gives (a string, or an object's "ruby"
/// or "name"), or "" when it gives none.
std::string rubyNameOf(StringRef RawValue) {
  Expected<json::Value> V = json::parse(RawValue);
  if (!V) {
    consumeError(V.takeError());
    return "";
  }
  if (std::optional<StringRef> S = V->getAsString())
    return S->str();
  if (const json::Object *O = V->getAsObject()) {
    StringRef Key;
    if (const json::Value *Ruby = findKey(*O, {"ruby", "name"}, Key))
      if (std::optional<StringRef> S = Ruby->getAsString())
        return S->str();
  }
  return "";
}

/// An object map that repeats a C symbol with a different Ruby name is an
/// error, as it is for the array shape; json::parse alone would keep one.
Error checkRepeatedKeys(StringRef Text, StringRef Source) {
  StringMap<std::string> FirstName;
  for (const RawMember &Member : topLevelMembers(Text)) {
    std::string Ruby = rubyNameOf(Member.Value);
    auto [It, Inserted] = FirstName.try_emplace(Member.Key, Ruby);
    if (!Inserted && It->second != Ruby)
      return createStringError(
          inconvertibleErrorCode(),
          Source + ":" + positionOf(Text, Member.KeyOffset) +
              ": conflicting names for C symbol \"" + Member.Key + "\": \"" +
              It->second + "\" and \"" + Ruby + "\"");
  }
  return Error::success();
}

/// Rewrites json::ParseError's "[L:C, byte=N]: msg" as "Source:L:C: msg".
Error describeParseError(Error E, StringRef Source) {
  std::string Text = toString(std::move(E));
  SmallVector<StringRef, 4> Match;
  static const Regex Position("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  if (Position.match(Text, &Match))
    return createStringError(inconvertibleErrorCode(),
                             Source + ":" + Match[1] + ":" + Match[2] + ": " +
                                 Match[3]);
  return createStringError(inconvertibleErrorCode(), Source + ": " + Text);
}

} // namespace

Expected<SymbolMap> SymbolMap::parse(StringRef Text, StringRef Source) {
  Expected<json::Value> Root = json::parse(Text);
  if (!Root)
    return describeParseError(Root.takeError(), Source);
  if (Root->getAsObject())
    if (Error E = checkRepeatedKeys(Text, Source))
      return E;
  SymbolMap Map;
  if (Error E = SymbolMapReader(Source, Map.Entries).read(*Root))
    return E;
  return Map;
}

Expected<SymbolMap> SymbolMap::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), Path + ": cannot read: " +
                                                    Buffer.getError().message());
  return parse((*Buffer)->getBuffer(), Path);
}

const SymbolMapEntry *SymbolMap::lookup(StringRef CName) const {
  auto It = Entries.find(CName);
  return It == Entries.end() ? nullptr : &It->second;
}

} // namespace spinelprof
