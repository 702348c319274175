//===- BlockCreators.cpp - Names Spinel's blocks after their creators -----===//

#include "BlockCreators.h"

#include "SpinelNames.h"
#include "SymbolMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace spinelprof {

namespace {

/// Blocks nest (a lambda made inside a proc); a cycle of references between
/// block functions must not recurse forever.
constexpr unsigned MaxNesting = 8;

/// "block", "lambda" or "fiber" for a block function's C name, else null.
const char *blockWord(StringRef CName) {
  if (CName.starts_with("_sp_proc_fn_"))
    return "block";
  if (CName.starts_with("_lam_"))
    return "lambda";
  if (CName.starts_with("_fiber_body_"))
    return "fiber";
  return nullptr;
}

} // namespace

SmallVector<const Function *, 2>
BlockCreators::creatorsOf(const Function &Block) const {
  SmallVector<const Function *, 2> Creators;
  SmallPtrSet<const Function *, 4> Seen;
  // Follow constant users (a cast, a constant array of handlers) down to
  // the instructions that hold them.
  SmallVector<const User *, 8> Work(Block.users().begin(), Block.users().end());
  SmallPtrSet<const User *, 16> Visited;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Visited.insert(U).second)
      continue;
    if (const auto *I = dyn_cast<Instruction>(U)) {
      // Calling a block is not creating it.
      if (const auto *Call = dyn_cast<CallBase>(I))
        if (Call->getCalledOperand()->stripPointerCasts() == &Block &&
            !is_contained(Call->args(), &Block))
          continue;
      const Function *F = I->getFunction();
      if (F && F != &Block && Seen.insert(F).second)
        Creators.push_back(F);
    } else if (isa<Constant>(U) && !isa<GlobalValue>(U)) {
      Work.append(U->users().begin(), U->users().end());
    }
  }
  // Module order, so that the result does not depend on use-list order.
  const Module *M = Block.getParent();
  if (Creators.size() > 1 && M) {
    DenseMap<const Function *, unsigned> Order;
    unsigned N = 0;
    for (const Function &F : *M)
      Order[&F] = N++;
    llvm::sort(Creators, [&](const Function *A, const Function *B) {
      return Order.lookup(A) < Order.lookup(B);
    });
  }
  return Creators;
}

std::string BlockCreators::creatorName(const Function &Creator,
                                       unsigned Depth) {
  StringRef CName = Creator.getName();
  if (const SymbolMapEntry *Entry = Symbols ? Symbols->lookup(CName) : nullptr)
    if (!Entry->RubyName.empty())
      return Entry->RubyName;
  if (blockWord(CName)) {
    std::string Nested = nameBlock(Creator, Depth + 1);
    if (!Nested.empty())
      return Nested;
  }
  bool IsProgramOwn =
      getDefinitionSite(Creator, CompilingRuntimeLibrary).IsProgramOwn;
  return identifyFrame(CName, IsProgramOwn).DisplayName;
}

std::string BlockCreators::nameBlock(const Function &Block, unsigned Depth) {
  const char *Word = blockWord(Block.getName());
  if (!Word || blockName(Block.getName()).empty() || Depth > MaxNesting)
    return "";
  auto Cached = Cache.find(&Block);
  if (Cached != Cache.end())
    return Cached->second;
  SmallVector<const Function *, 2> Creators = creatorsOf(Block);
  std::string Name;
  if (!Creators.empty()) {
    SmallVector<std::string, 2> Names;
    for (const Function *C : Creators)
      Names.push_back(creatorName(*C, Depth));
    std::sort(Names.begin(), Names.end());
    Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
    Name = std::string(Word) + " in " + join(Names, " or ");
  }
  Cache[&Block] = Name;
  return Name;
}

std::string BlockCreators::displayName(const Function &Block) {
  return nameBlock(Block, 0);
}

} // namespace spinelprof
