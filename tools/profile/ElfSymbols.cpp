//===- ElfSymbols.cpp - Function symbols of an ELF file -------------------===//
#include "ElfSymbols.h"
#include "ToolError.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <elf.h>

namespace spinelprof {

/// Reads one image; every offset is checked against its size first.
class ElfParser {
public:
  ElfParser(std::string_view Image, const std::string &Path) : Image(Image), Path(Path) {}

  ElfSymbols parse() {
    ElfSymbols Out;
    if (Image.size() < SELFMAG || std::memcmp(Image.data(), ELFMAG, SELFMAG) != 0)
      fail("not an ELF file");
    Elf64_Ehdr Header = read<Elf64_Ehdr>(0, "the ELF header");
    if (Header.e_ident[EI_CLASS] != ELFCLASS64 || Header.e_ident[EI_DATA] != ELFDATA2LSB)
      fail("not a 64-bit little-endian ELF file");
    if (Header.e_shentsize != sizeof(Elf64_Shdr))
      fail(fmt::format("section header size {} (expected {})", Header.e_shentsize,
                       sizeof(Elf64_Shdr)));
    std::vector<Elf64_Shdr> Sections;
    for (unsigned I = 0; I < Header.e_shnum; ++I)
      Sections.push_back(read<Elf64_Shdr>(Header.e_shoff + uint64_t(I) * sizeof(Elf64_Shdr),
                                          fmt::format("section header {}", I)));
    std::string_view SectionNames;
    if (Header.e_shstrndx < Sections.size())
      SectionNames = bytes(Sections[Header.e_shstrndx], "the section name table");
    for (size_t I = 0; I < Sections.size(); ++I) {
      const Elf64_Shdr &S = Sections[I];
      if (S.sh_type == SHT_NOTE && Out.BuildId.empty())
        Out.BuildId = buildIdIn(bytes(S, fmt::format("section {}", I)));
      else if (S.sh_type == SHT_PROGBITS &&
               nameAt(SectionNames, S.sh_name) == ".gnu_debuglink")
        Out.DebugLink = std::string(nameAt(bytes(S, ".gnu_debuglink"), 0));
      else if (S.sh_type == SHT_SYMTAB)
        readFunctions(Sections, I, Out);
    }
    return Out;
  }

private:
  [[noreturn]] void fail(const std::string &Problem) const {
    throw InputError(fmt::format("{}: {}", Path, Problem));
  }

  template <typename T> T read(uint64_t Offset, const std::string &What) const {
    if (Offset > Image.size() || Image.size() - Offset < sizeof(T))
      fail(fmt::format("{} at offset {} lies past the end of the file ({} bytes): truncated?",
                       What, Offset, Image.size()));
    T Value;
    std::memcpy(&Value, Image.data() + Offset, sizeof(T));
    return Value;
  }

  std::string_view bytes(const Elf64_Shdr &S, const std::string &What) const {
    if (S.sh_type == SHT_NOBITS)
      return {};
    if (S.sh_offset > Image.size() || Image.size() - S.sh_offset < S.sh_size)
      fail(fmt::format("{} ({} bytes at offset {}) lies past the end of the file ({} "
                       "bytes): truncated?",
                       What, S.sh_size, S.sh_offset, Image.size()));
    return Image.substr(S.sh_offset, S.sh_size);
  }

  /// The NUL-terminated string at Offset of Table; "" when out of range.
  static std::string_view nameAt(std::string_view Table, uint64_t Offset) {
    if (Offset >= Table.size())
      return {};
    std::string_view Rest = Table.substr(Offset);
    return Rest.substr(0, std::min(Rest.find('\0'), Rest.size()));
  }

  static std::string buildIdIn(std::string_view Notes) {
    size_t At = 0;
    while (Notes.size() - At >= sizeof(Elf64_Nhdr)) {
      Elf64_Nhdr H;
      std::memcpy(&H, Notes.data() + At, sizeof(H));
      uint64_t NameAt = At + sizeof(H);
      uint64_t DescAt = NameAt + ((uint64_t(H.n_namesz) + 3) & ~uint64_t(3));
      uint64_t Next = DescAt + ((uint64_t(H.n_descsz) + 3) & ~uint64_t(3));
      if (Next > Notes.size())
        break;
      if (H.n_type == NT_GNU_BUILD_ID && H.n_namesz == 4 &&
          Notes.substr(NameAt, 4) == std::string_view("GNU", 4)) {
        std::string Hex;
        for (uint32_t K = 0; K < H.n_descsz; ++K)
          Hex += fmt::format("{:02x}", uint8_t(Notes[DescAt + K]));
        return Hex;
      }
      At = Next;
    }
    return "";
  }

  void readFunctions(const std::vector<Elf64_Shdr> &Sections, size_t Index, ElfSymbols &Out);

  std::string_view Image;
  const std::string &Path;
};

namespace {

/// The name without a compiler's clone suffix (everything from the first
/// dot but a leading one), as the runtime shows it.
size_t baseLength(std::string_view Name) {
  size_t Dot = Name.find('.', 1);
  return Dot == std::string_view::npos ? Name.size() : Dot;
}

struct Candidate {
  uint64_t Start, End;
  size_t Name, Length;
  bool Global;
};

/// Among aliases at one address, whether A is the name to show over B.
bool preferOver(const Candidate &A, const Candidate &B, const std::string &Names) {
  if (A.Global != B.Global)
    return A.Global;
  std::string_view NA(Names.data() + A.Name, A.Length), NB(Names.data() + B.Name, B.Length);
  if ((NA[0] == '_') != (NB[0] == '_'))
    return NB[0] == '_';
  if (NA.size() != NB.size())
    return NA.size() < NB.size();
  return NA < NB;
}

} // namespace

void ElfParser::readFunctions(const std::vector<Elf64_Shdr> &Sections, size_t Index,
                              ElfSymbols &Out) {
  const Elf64_Shdr &Symtab = Sections[Index];
  if (Symtab.sh_entsize != sizeof(Elf64_Sym))
    fail(fmt::format(".symtab entry size {} (expected {})", Symtab.sh_entsize,
                     sizeof(Elf64_Sym)));
  if (Symtab.sh_link >= Sections.size())
    fail(fmt::format(".symtab links to section {}, which does not exist", Symtab.sh_link));
  std::string_view Symbols = bytes(Symtab, ".symtab");
  Out.Names = std::string(bytes(Sections[Symtab.sh_link], ".strtab"));
  Out.Names.push_back('\0'); // Every name ends inside Names.
  Out.HasSymtab = true;
  std::vector<Candidate> Found;
  for (size_t At = sizeof(Elf64_Sym); At + sizeof(Elf64_Sym) <= Symbols.size();
       At += sizeof(Elf64_Sym)) {
    Elf64_Sym S;
    std::memcpy(&S, Symbols.data() + At, sizeof(S));
    unsigned Type = ELF64_ST_TYPE(S.st_info), Binding = ELF64_ST_BIND(S.st_info);
    if ((Type != STT_FUNC && Type != STT_GNU_IFUNC) || S.st_shndx == SHN_UNDEF ||
        S.st_value == 0 || S.st_size == 0 || S.st_name >= Out.Names.size() - 1)
      continue;
    size_t Length = baseLength(Out.Names.data() + S.st_name);
    if (Length == 0)
      continue;
    Found.push_back({S.st_value, S.st_value + S.st_size, S.st_name, Length,
                     Binding == STB_GLOBAL || Binding == STB_WEAK});
  }
  std::stable_sort(Found.begin(), Found.end(),
                   [](const Candidate &A, const Candidate &B) { return A.Start < B.Start; });
  Out.Functions.clear();
  for (size_t I = 0; I < Found.size();) {
    size_t Best = I;
    size_t Next = I + 1;
    for (; Next < Found.size() && Found[Next].Start == Found[I].Start; ++Next)
      if (preferOver(Found[Next], Found[Best], Out.Names))
        Best = Next;
    Out.Functions.push_back({Found[Best].Start, Found[Best].End, Found[Best].Name,
                             Found[Best].Length});
    I = Next;
  }
}

ElfSymbols ElfSymbols::parse(std::string_view Image, const std::string &Path) {
  return ElfParser(Image, Path).parse();
}

std::string_view ElfSymbols::functionAt(uint64_t Address) const {
  auto It = std::upper_bound(Functions.begin(), Functions.end(), Address,
                             [](uint64_t A, const Function &F) { return A < F.Start; });
  if (It == Functions.begin())
    return {};
  --It;
  if (Address >= It->End)
    return {};
  return std::string_view(Names.data() + It->Name, It->Length);
}

} // namespace spinelprof
