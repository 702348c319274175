//===- ElfSymbolsTest.cpp - Unit tests of the ELF reader and debug lookup -===//
//
// The ELF images are built here field by field (elf.h's structures), so the
// reader is checked against the format, and every truncation of a valid
// image is tried: an error naming the file, or a result, never a crash.
// GoogleTest; run by test/tools/elf-symbols.test.
//
//===----------------------------------------------------------------------===//
#include "ElfSymbols.h"
#include "NativeNames.h"
#include "ToolError.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace spinelprof;

namespace {

struct TestSymbol {
  const char *Name;
  uint64_t Value, Size;
  unsigned Binding, Type;
};

template <typename T> void append(std::string &Out, const T &Value) {
  Out.append(reinterpret_cast<const char *>(&Value), sizeof(Value));
}

/// The .symtab and .strtab of Symbols (the null symbol first).
void symbolTables(const std::vector<TestSymbol> &Symbols, std::string &Symtab,
                  std::string &Strtab) {
  Strtab.assign(1, '\0');
  Symtab.assign(sizeof(Elf64_Sym), '\0');
  for (const TestSymbol &S : Symbols) {
    Elf64_Sym Sym{};
    Sym.st_name = uint32_t(Strtab.size());
    Sym.st_info = ELF64_ST_INFO(S.Binding, S.Type);
    Sym.st_shndx = 1;
    Sym.st_value = S.Value;
    Sym.st_size = S.Size;
    Strtab += S.Name;
    Strtab += '\0';
    append(Symtab, Sym);
  }
}

/// An ELF header for an x86-64 shared object whose section headers (ShNum,
/// the last .shstrtab) start at ShOff.
Elf64_Ehdr elfHeader(uint64_t ShOff, uint16_t ShNum) {
  Elf64_Ehdr E{};
  std::memcpy(E.e_ident, ELFMAG, SELFMAG);
  E.e_ident[EI_CLASS] = ELFCLASS64;
  E.e_ident[EI_DATA] = ELFDATA2LSB;
  E.e_ident[EI_VERSION] = EV_CURRENT;
  E.e_type = ET_DYN;
  E.e_machine = EM_X86_64;
  E.e_ehsize = sizeof(Elf64_Ehdr);
  E.e_shoff = ShOff;
  E.e_shentsize = sizeof(Elf64_Shdr);
  E.e_shnum = ShNum;
  E.e_shstrndx = uint16_t(ShNum - 1);
  return E;
}

/// A relocatable-looking ELF image: .note.gnu.build-id (bytes 12 34 ab),
/// .gnu_debuglink "libdemo.debug", .symtab/.strtab with Symbols, .shstrtab.
std::string elfImage(const std::vector<TestSymbol> &Symbols) {
  std::string Strtab, Symtab;
  symbolTables(Symbols, Symtab, Strtab);
  std::string Note;
  Elf64_Nhdr N{4, 3, NT_GNU_BUILD_ID};
  append(Note, N);
  Note += std::string("GNU\0", 4) + std::string("\x12\x34\xab\0", 4);
  std::string Link = std::string("libdemo.debug\0\0\0", 16) + std::string(4, '\x7f');
  std::string Shstrtab = std::string("\0.note.gnu.build-id\0.gnu_debuglink\0.symtab\0.strtab\0"
                                     ".shstrtab\0",
                                     61);
  struct Part {
    const std::string *Bytes;
    uint32_t Type, Name, Link;
    uint64_t EntSize;
  };
  std::vector<Part> Parts = {{&Note, SHT_NOTE, 1, 0, 0},
                             {&Link, SHT_PROGBITS, 20, 0, 0},
                             {&Symtab, SHT_SYMTAB, 35, 4, sizeof(Elf64_Sym)},
                             {&Strtab, SHT_STRTAB, 43, 0, 0},
                             {&Shstrtab, SHT_STRTAB, 51, 0, 0}};
  std::string Body;
  std::vector<Elf64_Shdr> Headers(1);
  for (const Part &P : Parts) {
    Elf64_Shdr H{};
    H.sh_name = P.Name;
    H.sh_type = P.Type;
    H.sh_offset = sizeof(Elf64_Ehdr) + Body.size();
    H.sh_size = P.Bytes->size();
    H.sh_link = P.Link;
    H.sh_entsize = P.EntSize;
    Headers.push_back(H);
    Body += *P.Bytes;
    Body.resize((Body.size() + 7) & ~size_t(7), '\0');
  }
  std::string Out;
  append(Out, elfHeader(sizeof(Elf64_Ehdr) + Body.size(), uint16_t(Headers.size())));
  Out += Body;
  for (const Elf64_Shdr &H : Headers)
    append(Out, H);
  return Out;
}

const std::vector<TestSymbol> DemoSymbols = {
    {"_int_malloc", 0x1000, 0x200, STB_LOCAL, STT_FUNC},
    {"__strchr_avx2", 0x1400, 0x100, STB_LOCAL, STT_FUNC},
    {"__GI_strchr", 0x1400, 0x100, STB_LOCAL, STT_FUNC},
    {"strchr", 0x1400, 0x100, STB_GLOBAL, STT_GNU_IFUNC},
    {"helper.isra.0", 0x2000, 0x10, STB_LOCAL, STT_FUNC},
    {"data_object", 0x3000, 0x100, STB_GLOBAL, STT_OBJECT},
};

void writeFile(const std::string &Path, const std::string &Bytes) {
  std::ofstream(Path, std::ios::binary) << Bytes;
}

TEST(ElfSymbols, NamesFunctionsTheStrippedObjectLacks) {
  ElfSymbols S = ElfSymbols::parse(elfImage(DemoSymbols), "demo.debug");
  EXPECT_TRUE(S.hasSymtab());
  EXPECT_EQ(S.functionAt(0x1000), "_int_malloc");
  EXPECT_EQ(S.functionAt(0x11ff), "_int_malloc");
  EXPECT_EQ(S.functionAt(0x1200), "");              // between functions
  EXPECT_EQ(S.functionAt(0x1450), "strchr");        // the global alias wins
  EXPECT_EQ(S.functionAt(0x2008), "helper");        // clone suffix dropped
  EXPECT_EQ(S.functionAt(0x3000), "");              // not a function
  EXPECT_EQ(S.functionAt(0x10), "");
  EXPECT_EQ(S.buildId(), "1234ab");
  EXPECT_EQ(S.debugLink(), "libdemo.debug");
}

TEST(ElfSymbols, NotElfIsAnErrorNamingTheFile) {
  try {
    ElfSymbols::parse("#!/bin/sh\necho hi\n", "/x/libc.debug");
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_STREQ(E.what(), "/x/libc.debug: not an ELF file");
  }
}

TEST(ElfSymbols, EveryTruncationIsAnErrorOrAResultNeverACrash) {
  std::string Image = elfImage(DemoSymbols);
  size_t Errors = 0;
  for (size_t Length = 0; Length < Image.size(); ++Length) {
    try {
      ElfSymbols S = ElfSymbols::parse(Image.substr(0, Length), "t.debug");
      (void)S.functionAt(0x1000);
    } catch (const InputError &E) {
      ++Errors;
      EXPECT_EQ(std::string(E.what()).rfind("t.debug: ", 0), 0u) << E.what();
    }
  }
  // The section headers are at the end: every proper prefix loses some.
  EXPECT_EQ(Errors, Image.size());
  try {
    ElfSymbols::parse(Image.substr(0, Image.size() - 1), "t.debug");
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("truncated?"), std::string::npos) << E.what();
  }
}

TEST(ElfSymbols, CorruptOffsetsAreErrors) {
  std::string Image = elfImage(DemoSymbols);
  Elf64_Ehdr E;
  std::memcpy(&E, Image.data(), sizeof(E));
  // The .symtab's header (section 3) claims a size past the end.
  size_t At = E.e_shoff + 3 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_size);
  uint64_t Huge = uint64_t(1) << 60;
  std::memcpy(&Image[At], &Huge, sizeof(Huge));
  EXPECT_THROW(ElfSymbols::parse(Image, "c.debug"), InputError);
}

/// A profile with three addresses of one object: two in _int_malloc, one
/// that no symbol covers.
Profile addressProfile(const std::string &Object, const std::string &BuildId) {
  Profile P;
  Frame Main{"<main>", "main", FrameKind::User, "app.c", 1, std::nullopt};
  P.Frames.push_back(Main);
  for (uint64_t Address : {0x1004, 0x1100, 0x1300}) {
    Frame F{"[native] libc.so.6", "libc.so.6", FrameKind::Runtime, "libc.so.6", 0,
            NativeAddress{Object, BuildId, Address}};
    P.Frames.push_back(F);
    Sample S;
    S.Thread = 1;
    S.Stack = {0, uint32_t(P.Frames.size() - 1)};
    S.Count = 2;
    P.Samples.push_back(S);
  }
  return P;
}

std::string scratchDir(const std::string &Name) {
  std::string Dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                    "/spinelprof-elf-" + Name + "-" + std::to_string(::getpid());
  std::system(("rm -rf '" + Dir + "' && mkdir -p '" + Dir + "/.build-id/12'").c_str());
  return Dir;
}

TEST(NativeNames, NamesByBuildIdAndMergesFrames) {
  std::string Dir = scratchDir("byid");
  writeFile(Dir + "/.build-id/12/34ab.debug", elfImage(DemoSymbols));
  Profile P = addressProfile("/nonexistent/libc.so.6", "1234ab");
  std::vector<std::string> Warnings;
  nameNativeFrames(P, [&](const std::string &W) { Warnings.push_back(W); }, Dir);
  EXPECT_TRUE(Warnings.empty());
  ASSERT_EQ(P.Frames.size(), 3u);
  EXPECT_EQ(P.Frames[1].Name, "[native] _int_malloc");
  EXPECT_EQ(P.Frames[1].CName, "_int_malloc");
  EXPECT_EQ(P.Frames[1].File, "libc.so.6");
  EXPECT_EQ(P.Frames[2].Name, "[native] libc.so.6");
  ASSERT_EQ(P.Samples.size(), 2u);
  EXPECT_EQ(P.Samples[0].Count, 4u);
  for (const Frame &F : P.Frames)
    EXPECT_FALSE(F.Native);
}

TEST(NativeNames, FindsTheDebugLinkBesideTheObject) {
  std::string Dir = scratchDir("link");
  std::string Object = Dir + "/libdemo.so";
  writeFile(Object, elfImage({})); // stripped: a debuglink, no functions
  ::mkdir((Dir + "/.debug").c_str(), 0755);
  writeFile(Dir + "/.debug/libdemo.debug", elfImage(DemoSymbols));
  Profile P = addressProfile(Object, "");
  nameNativeFrames(P, [](const std::string &W) { ADD_FAILURE() << W; }, Dir + "/none");
  EXPECT_EQ(P.Frames[1].Name, "[native] _int_malloc");
}

TEST(NativeNames, CorruptOrForeignDebugFileWarnsAndKeepsTheObjectName) {
  std::string Dir = scratchDir("bad");
  std::string Image = elfImage(DemoSymbols);
  writeFile(Dir + "/.build-id/12/34ab.debug", Image.substr(0, Image.size() / 2));
  Profile P = addressProfile("/nonexistent/libc.so.6", "1234ab");
  std::vector<std::string> Warnings;
  nameNativeFrames(P, [&](const std::string &W) { Warnings.push_back(W); }, Dir);
  ASSERT_EQ(Warnings.size(), 1u); // once per file, not per frame
  EXPECT_NE(Warnings[0].find(Dir + "/.build-id/12/34ab.debug: "), std::string::npos)
      << Warnings[0];
  ASSERT_EQ(P.Frames.size(), 2u);
  EXPECT_EQ(P.Frames[1].Name, "[native] libc.so.6");
  EXPECT_EQ(P.Samples[0].Count, 6u);

  // A debug file of another build (libc upgraded since the run).
  Warnings.clear();
  Profile R = addressProfile(Dir + "/nonexistent", "1234ac");
  writeFile(Dir + "/.build-id/12/34ac.debug", Image); // says 1234ab inside
  nameNativeFrames(R, [&](const std::string &W) { Warnings.push_back(W); }, Dir);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("is not the profiled object's 1234ac"), std::string::npos)
      << Warnings[0];
  EXPECT_EQ(R.Frames[1].Name, "[native] libc.so.6");
}

} // namespace
