//===- spinelprof_native.cpp - Naming time outside instrumented code ------===//
//
// At start-up, for every loaded object (dl_iterate_phdr): map its file
// read-only (the vDSO is read from memory), take the function symbols of
// .symtab (else .dynsym), and build one sorted array of [start, end) ranges.
// A function whose C name is the c_name of a descriptor in this program's
// spinelprof_frames section is instrumented: its range answers nullptr, so
// the shadow stack's own top frame stands; but when that descriptor is
// flagged SPINELPROF_FLAG_PC_NAMED (a small leaf the plugin gave no push),
// the executable's function answers that descriptor, so the leaf is named
// with its Ruby name and kind exactly as a native leaf is. Every other function gets a
// synthetic descriptor "[native] NAME", kind runtime, file = the object's
// basename. A PC inside an object's executable segment but in no symbol
// (stripped libraries: glibc's memcpy variants are not in .dynsym) gets the
// object's own "[native] libc.so.6" name rather than a wrong guess, with a
// descriptor per address that keeps the object and the address for the tool
// to name from the object's debug file (spinelprof_native_addresses.h).
//
// Everything lives in anonymous mappings made read-only once built, and is
// published with one release store; the lookup is a binary search, so it is
// async-signal-safe. Plain libc: no libstdc++, no malloc in the lookup.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_native.h"
#include "spinelprof_native_addresses.h"

#include <initializer_list>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spinelprof {

namespace {

/// One function, or one object's executable segment, once built.
struct NativeRange {
  uintptr_t Start;
  uintptr_t End;
  /// Null for an instrumented function; the plugin's own descriptor for a
  /// PC-named one.
  const spinelprof_frame_descriptor *Frame;
};

/// The published table. Immutable once Ready is set.
struct NativeTable {
  const NativeRange *Functions; // sorted by Start, disjoint starts
  size_t FunctionCount;
  const NativeRange *Segments; // executable segments, unsorted, few
  const NativeObject *SegmentObjects; // the object of each segment
  size_t SegmentCount;
};

NativeTable Table;
bool Ready; // accessed with __atomic builtins

/// What a native function's or segment's name starts with, and how much
/// of a symbol's or object's name follows (a C++ name can run to
/// thousands of bytes).
constexpr char NativePrefix[] = "[native] ";
constexpr size_t NativePrefixLength = sizeof(NativePrefix) - 1;
constexpr size_t MaxNativeNameLength = 246;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif

/// How far ahead of what a buffer uses it is populated at most.
constexpr size_t MaxPopulateAhead = size_t(1) << 16;

/// A byte buffer in anonymous memory, grown with mremap. Start-up only.
/// Its pages are populated a run at a time (MADV_POPULATE_WRITE) before
/// they are written: on a VM a page's first write can cost ~12 us, ~6
/// when populated first (the table writes ~130 pages;
/// bench/overhead/results/2026-12-02-startup-faults.md).
struct Buffer {
  char *Data = nullptr;
  size_t Size = 0;
  size_t Capacity = 0;
  size_t Populated = 0; // bytes from Data, a multiple of the page size
  bool Failed = false;

  /// Populates the pages up to Needed bytes, and up to as many again as
  /// are populated already (at most MaxPopulateAhead) for the appends to
  /// come. Where the kernel cannot, the pages fault in when written.
  void populateTo(size_t Needed) {
    if (Needed <= Populated)
      return;
    size_t Page = size_t(getpagesize());
    size_t End = (Needed + Page - 1) / Page * Page;
    size_t Ahead = Populated < MaxPopulateAhead ? Populated : MaxPopulateAhead;
    if (End < Populated + Ahead)
      End = Populated + Ahead;
    if (End > Capacity)
      End = Capacity;
    madvise(Data + Populated, End - Populated, MADV_POPULATE_WRITE);
    Populated = End;
  }

  void *grow(size_t Bytes) {
    if (Failed)
      return nullptr;
    if (Size + Bytes > Capacity) {
      size_t NewCapacity = Capacity ? Capacity : 1 << 16;
      while (NewCapacity < Size + Bytes)
        NewCapacity *= 2;
      void *P = Data ? mremap(Data, Capacity, NewCapacity, MREMAP_MAYMOVE)
                     : mmap(nullptr, NewCapacity, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (P == MAP_FAILED) {
        Failed = true;
        return nullptr;
      }
      Data = static_cast<char *>(P);
      Capacity = NewCapacity;
    }
    populateTo(Size + Bytes);
    void *At = Data + Size;
    Size += Bytes;
    return At;
  }
  /// Appends Prefix, S[0, Length) and a NUL; returns the offset, or -1
  /// (also past INT32_MAX: pending ranges keep 32-bit offsets).
  long appendString(const char *S, size_t Length, const char *Prefix = "") {
    size_t PrefixLength = strlen(Prefix);
    char *At = static_cast<char *>(grow(PrefixLength + Length + 1));
    if (!At)
      return -1;
    if (size_t(At - Data) > size_t(INT32_MAX)) {
      Failed = true;
      return -1;
    }
    memcpy(At, Prefix, PrefixLength);
    memcpy(At + PrefixLength, S, Length);
    At[PrefixLength + Length] = '\0';
    return At - Data;
  }
  void release() {
    if (Data)
      munmap(Data, Capacity);
    *this = Buffer();
  }
  void makeReadOnly() {
    if (Data)
      mprotect(Data, Capacity, PROT_READ);
  }
};

/// A range while the table is built: names are offsets into the pool,
/// which may still move. 32 bytes: the sort moves them (4 300 functions
/// of libc, libm and a program: most of a short program's start-up).
struct PendingRange {
  uintptr_t Start;
  /// With Name -1: the PC-named descriptor, or null for a pushed frame.
  const spinelprof_frame_descriptor *Own;
  uint32_t Size;   // End - Start
  int32_t Name;    // "[native] NAME" in the pool; -1 for instrumented
  int32_t File;    // object basename in the pool
  uint16_t Object; // segments only: the object's index in Builder::Objects
  uint8_t Global;  // STB_GLOBAL or STB_WEAK: preferred among aliases
};

/// A symbol's or segment's size as a pending range keeps it (no function
/// or segment comes near 4 GiB).
uint32_t clampedSize(uint64_t Size) {
  return Size > UINT32_MAX ? UINT32_MAX : uint32_t(Size);
}

/// An object's path and build-id in the pool, and its bias, for its
/// segments.
struct PendingObject {
  long Path;
  long BuildId;
  uintptr_t Bias;
};

struct Builder {
  /// The plugin's descriptors, sorted by c_name, pushed ones before
  /// PC-named ones of the same name.
  const spinelprof_frame_descriptor **Instrumented = nullptr;
  size_t InstrumentedCount = 0;
  /// Bit (first byte << 8 | second byte) is set when some c_name starts
  /// so: most of libc's thousands of names are rejected without a search.
  uint64_t Prefixes[65536 / 64] = {};
  Buffer InstrumentedStorage;
  Buffer Pool;      // strings
  Buffer Functions; // PendingRange
  Buffer Segments;  // PendingRange
  Buffer Objects;   // PendingObject, one per object with segments
  bool SeenMain = false;
};

/// The first two bytes of Name[0, Length), Length >= 1 (the second is 0
/// for a one-byte name).
unsigned prefixOf(const char *Name, size_t Length) {
  return unsigned(uint8_t(Name[0])) << 8 |
         (Length > 1 ? unsigned(uint8_t(Name[1])) : 0u);
}

bool isPcNamed(const spinelprof_frame_descriptor *D) {
  return D->flags & SPINELPROF_FLAG_PC_NAMED;
}

int compareDescriptors(const void *A, const void *B) {
  const auto *X = *static_cast<const spinelprof_frame_descriptor *const *>(A);
  const auto *Y = *static_cast<const spinelprof_frame_descriptor *const *>(B);
  if (int C = strcmp(X->c_name, Y->c_name))
    return C;
  return int(isPcNamed(X)) - int(isPcNamed(Y));
}

/// The first descriptor whose c_name is Name[0, Length), or null.
const spinelprof_frame_descriptor *findDescriptor(const Builder &B,
                                                  const char *Name,
                                                  size_t Length) {
  unsigned Prefix = prefixOf(Name, Length);
  if (!(B.Prefixes[Prefix / 64] >> (Prefix % 64) & 1))
    return nullptr;
  size_t Low = 0, High = B.InstrumentedCount;
  // The first candidate not below Name.
  while (Low < High) {
    size_t Mid = Low + (High - Low) / 2;
    const char *Candidate = B.Instrumented[Mid]->c_name;
    int C = strncmp(Candidate, Name, Length);
    if (C == 0 && Candidate[Length] != '\0')
      C = 1; // Candidate is longer: it sorts after Name.
    if (C < 0)
      Low = Mid + 1;
    else
      High = Mid;
  }
  if (Low == B.InstrumentedCount)
    return nullptr;
  const char *Found = B.Instrumented[Low]->c_name;
  return strncmp(Found, Name, Length) == 0 && Found[Length] == '\0'
             ? B.Instrumented[Low]
             : nullptr;
}

/// The function's name without a compiler's clone suffix: `.isra.0`,
/// `.constprop.1`, `.part.0`, `.cold`, `.llvm.123`, ... (everything from the
/// first dot; C and mangled C++ names have none).
size_t baseNameLength(const char *Name) {
  const char *Dot = strchr(Name, '.');
  return Dot && Dot != Name ? size_t(Dot - Name) : strlen(Name);
}

const char *pathBaseName(const char *Path) {
  const char *Slash = strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

/// The object's NT_GNU_BUILD_ID in lower-case hex, read from its PT_NOTE
/// segments in memory, appended to the pool; the offset of "" when it has
/// none. Start-up only.
long appendBuildId(Buffer &Pool, const struct dl_phdr_info *Info) {
  for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Note = reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
    size_t At = 0;
    while (At + sizeof(ElfW(Nhdr)) <= P.p_memsz) {
      ElfW(Nhdr) H;
      memcpy(&H, Note + At, sizeof(H));
      size_t NameAt = At + sizeof(H);
      size_t DescAt = NameAt + ((H.n_namesz + 3) & ~size_t(3));
      size_t Next = DescAt + ((H.n_descsz + 3) & ~size_t(3));
      if (Next > P.p_memsz)
        break;
      if (H.n_type == NT_GNU_BUILD_ID && H.n_namesz == 4 &&
          memcmp(Note + NameAt, "GNU", 4) == 0 && H.n_descsz <= 64) {
        static const char Hex[] = "0123456789abcdef";
        char Text[129];
        const auto *Bytes = reinterpret_cast<const uint8_t *>(Note + DescAt);
        for (size_t K = 0; K < H.n_descsz; ++K) {
          Text[2 * K] = Hex[Bytes[K] >> 4];
          Text[2 * K + 1] = Hex[Bytes[K] & 15];
        }
        return Pool.appendString(Text, 2 * H.n_descsz);
      }
      At = Next;
    }
  }
  return Pool.appendString("", 0);
}

/// An ELF image's function symbols: its .symtab, else its .dynsym, with the
/// string table they name, every offset checked against the image's size.
struct SymbolTable {
  const ElfW(Sym) *Symbols = nullptr;
  size_t Count = 0;
  const char *Strings = nullptr;
  size_t StringsSize = 0;
  bool FromSymtab = false; // all functions, static ones too
};

/// Finds Image's symbol table (Image: Size bytes). Returns false when it is
/// not a 64-bit ELF image with a well-formed one.
bool findSymbolTable(const char *Image, size_t Size, SymbolTable &T) {
  if (Size < sizeof(ElfW(Ehdr)) || memcmp(Image, ELFMAG, SELFMAG) != 0)
    return false;
  const auto *Header = reinterpret_cast<const ElfW(Ehdr) *>(Image);
  if (Header->e_ident[EI_CLASS] != ELFCLASS64 ||
      Header->e_shentsize != sizeof(ElfW(Shdr)) || Header->e_shoff == 0 ||
      Header->e_shoff > Size ||
      Header->e_shnum > (Size - Header->e_shoff) / sizeof(ElfW(Shdr)))
    return false;
  const auto *Sections =
      reinterpret_cast<const ElfW(Shdr) *>(Image + Header->e_shoff);
  const ElfW(Shdr) *Symbols = nullptr;
  for (unsigned I = 0; I < Header->e_shnum; ++I)
    if (Sections[I].sh_type == SHT_SYMTAB)
      Symbols = &Sections[I];
  T.FromSymtab = Symbols != nullptr;
  if (!Symbols)
    for (unsigned I = 0; I < Header->e_shnum; ++I)
      if (Sections[I].sh_type == SHT_DYNSYM)
        Symbols = &Sections[I];
  if (!Symbols || Symbols->sh_link >= Header->e_shnum ||
      Symbols->sh_entsize != sizeof(ElfW(Sym)) || Symbols->sh_offset > Size ||
      Symbols->sh_size > Size - Symbols->sh_offset)
    return false;
  const ElfW(Shdr) &Strings = Sections[Symbols->sh_link];
  if (Strings.sh_offset > Size || Strings.sh_size > Size - Strings.sh_offset ||
      Strings.sh_size == 0)
    return false;
  T.Strings = Image + Strings.sh_offset;
  T.StringsSize = Strings.sh_size;
  // The string table must end in a NUL for strchr/strlen to stay inside.
  if (T.Strings[T.StringsSize - 1] != '\0')
    return false;
  T.Symbols = reinterpret_cast<const ElfW(Sym) *>(Image + Symbols->sh_offset);
  T.Count = Symbols->sh_size / sizeof(ElfW(Sym));
  return true;
}

/// Adds symbol S of table T (an image loaded at Base) when it is a defined
/// function: its range, and its name: the executable's own descriptor's, or
/// "[native] " and the symbol's. Returns false when the table is full.
bool addSymbol(Builder &B, const SymbolTable &T, const ElfW(Sym) &S,
               uintptr_t Base, long File, bool IsMain) {
  unsigned Type = ELF64_ST_TYPE(S.st_info);
  if ((Type != STT_FUNC && Type != STT_GNU_IFUNC) || S.st_shndx == SHN_UNDEF ||
      S.st_value == 0 || S.st_size == 0 || S.st_name >= T.StringsSize)
    return true;
  const char *SymbolName = T.Strings + S.st_name;
  size_t Length = baseNameLength(SymbolName);
  if (Length == 0)
    return true;
  auto *R = static_cast<PendingRange *>(B.Functions.grow(sizeof(PendingRange)));
  if (!R)
    return false;
  R->Start = Base + S.st_value;
  R->Size = clampedSize(S.st_size);
  R->File = int32_t(File);
  R->Object = 0;
  unsigned Binding = ELF64_ST_BIND(S.st_info);
  R->Global = Binding == STB_GLOBAL || Binding == STB_WEAK;
  R->Own = nullptr;
  if (const spinelprof_frame_descriptor *D =
          findDescriptor(B, SymbolName, Length)) {
    // A PC-named leaf is one of the executable's own functions: a
    // library's function of the same name stays native.
    if (!isPcNamed(D) || IsMain) {
      R->Name = -1;
      R->Own = isPcNamed(D) ? D : nullptr;
      return true;
    }
  }
  R->Name = int32_t(B.Pool.appendString(
      SymbolName, Length < MaxNativeNameLength ? Length : MaxNativeNameLength,
      NativePrefix));
  return R->Name >= 0;
}

/// Adds the function symbols of one ELF image (a whole file, or the vDSO in
/// memory) loaded at Base. Every offset is checked against Size. Returns
/// true when they came from a .symtab (all functions, static ones too).
bool addSymbols(Builder &B, const char *Image, size_t Size, uintptr_t Base,
                long File, bool IsMain) {
  SymbolTable T;
  if (!findSymbolTable(Image, Size, T))
    return false;
  for (size_t I = 1; I < T.Count; ++I)
    if (!addSymbol(B, T, T.Symbols[I], Base, File, IsMain))
      return false;
  return T.FromSymtab;
}

/// Maps Path read-only and adds its symbols. Returns true when they came
/// from a .symtab; false for a stripped file or one it could not read.
bool addFileSymbols(Builder &B, const char *Path, uintptr_t Base, long File,
                    bool IsMain) {
  int FD;
  do
    FD = open(Path, O_RDONLY | O_CLOEXEC);
  while (FD < 0 && errno == EINTR);
  if (FD < 0)
    return false;
  struct stat St;
  void *Image = MAP_FAILED;
  if (fstat(FD, &St) == 0 && St.st_size > 0)
    Image = mmap(nullptr, size_t(St.st_size), PROT_READ, MAP_PRIVATE, FD, 0);
  close(FD);
  if (Image == MAP_FAILED)
    return false;
  bool FromSymtab = addSymbols(B, static_cast<const char *>(Image),
                               size_t(St.st_size), Base, File, IsMain);
  munmap(Image, size_t(St.st_size));
  return FromSymtab;
}

/// An object's basename in the pool, and its index in Builder::Objects
/// (its path, build-id and bias).
struct ObjectRef {
  long File;
  uint16_t Index;
};

/// The executable segments of the object Info describes, named
/// "[native] <Base>": the fallback for code no symbol covers, each keeping
/// the object's path, build-id and bias. Sets ImageLoad to the first
/// loadable segment and ImageEnd past the last. Returns false when the pool
/// or the segment list is full.
bool addSegments(Builder &B, const struct dl_phdr_info *Info,
                 const ObjectRef &Object, const char *Base,
                 const ElfW(Phdr) *&ImageLoad, size_t &ImageEnd) {
  ImageLoad = nullptr;
  ImageEnd = 0;
  for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD)
      continue;
    if (!ImageLoad)
      ImageLoad = &P;
    if (P.p_vaddr + P.p_memsz > ImageEnd)
      ImageEnd = P.p_vaddr + P.p_memsz;
    if (!(P.p_flags & PF_X))
      continue;
    auto *S = static_cast<PendingRange *>(B.Segments.grow(sizeof(PendingRange)));
    if (!S)
      return false;
    S->Start = Info->dlpi_addr + P.p_vaddr;
    S->Size = clampedSize(P.p_memsz);
    S->File = int32_t(Object.File);
    S->Object = Object.Index;
    S->Global = 1;
    S->Own = nullptr;
    S->Name = int32_t(B.Pool.appendString(
        Base, strnlen(Base, MaxNativeNameLength), NativePrefix));
    if (S->Name < 0)
      return false;
  }
  return true;
}

/// The vDSO's symbols. It has no file; its whole image is mapped from the
/// first segment's file offset 0. The section headers lie past the
/// segment's p_memsz but inside its last page, which is mapped too.
void addVdsoSymbols(Builder &B, const struct dl_phdr_info *Info, long File,
                    const ElfW(Phdr) *ImageLoad, size_t ImageEnd) {
  long Page = sysconf(_SC_PAGESIZE);
  if (!ImageLoad || ImageLoad->p_offset != 0 || Page <= 0)
    return;
  size_t Size = ImageEnd - ImageLoad->p_vaddr;
  Size = (Size + size_t(Page) - 1) / size_t(Page) * size_t(Page);
  addSymbols(B,
             reinterpret_cast<const char *>(Info->dlpi_addr +
                                            ImageLoad->p_vaddr),
             Size, Info->dlpi_addr, File, /*IsMain=*/false);
}

/// Which object Info describes: its path (the executable's read into
/// ExePath), and whether it is the executable or the vDSO. Returns null
/// when the executable's path cannot be read.
const char *objectPath(Builder &B, const struct dl_phdr_info *Info,
                       char (&ExePath)[4096], bool &IsMain, bool &IsVdso) {
  const char *Path = Info->dlpi_name;
  IsMain = IsVdso = false;
  if (!Path || !*Path) {
    if (!B.SeenMain) {
      // The first object is the executable.
      ssize_t N = readlink("/proc/self/exe", ExePath, sizeof(ExePath) - 1);
      if (N <= 0)
        return nullptr;
      ExePath[N] = '\0';
      Path = ExePath;
      IsMain = true;
    } else {
      IsVdso = true;
    }
  } else if (strncmp(Path, "linux-vdso", 10) == 0 ||
             strncmp(Path, "linux-gate", 10) == 0) {
    IsVdso = true;
  }
  return Path;
}

int addObject(struct dl_phdr_info *Info, size_t, void *Data) {
  Builder &B = *static_cast<Builder *>(Data);
  char ExePath[4096];
  bool IsMain, IsVdso;
  const char *Path = objectPath(B, Info, ExePath, IsMain, IsVdso);
  if (!Path)
    return 0;
  B.SeenMain = true;
  const char *Base = IsVdso ? "[vdso]" : pathBaseName(Path);
  long File = B.Pool.appendString(Base, strlen(Base));
  size_t Index = B.Objects.Size / sizeof(PendingObject);
  auto *Entry = Index <= UINT16_MAX ? static_cast<PendingObject *>(
                                          B.Objects.grow(sizeof(PendingObject)))
                                    : nullptr;
  if (File < 0 || !Entry)
    return 1;
  *Entry = {B.Pool.appendString(Path, strlen(Path)), appendBuildId(B.Pool, Info),
            Info->dlpi_addr};
  if (Entry->Path < 0 || Entry->BuildId < 0)
    return 1;
  ObjectRef Object = {File, uint16_t(Index)};

  size_t SegmentsBefore = B.Segments.Size;
  const ElfW(Phdr) *ImageLoad;
  size_t ImageEnd;
  if (!addSegments(B, Info, Object, Base, ImageLoad, ImageEnd))
    return 1;
  if (IsVdso) {
    addVdsoSymbols(B, Info, File, ImageLoad, ImageEnd);
    return 0;
  }
  bool FromSymtab = addFileSymbols(B, IsMain ? "/proc/self/exe" : Path,
                                   Info->dlpi_addr, File, IsMain);
  // A stripped executable has no symbols for its instrumented functions:
  // its segment would name every sample in them "[native] <program>". Let
  // the shadow stack stand there instead (a PC-named leaf's time then goes
  // to its caller).
  if (IsMain && !FromSymtab && B.InstrumentedCount)
    B.Segments.Size = SegmentsBefore;
  return 0;
}

/// Among aliases at one address, which name to show: instrumented (pushed,
/// then PC-named) wins, then a global name, then
/// one without a leading underscore (memcpy over __memcpy), then the
/// shorter, then the first in byte order (stable across runs).
bool preferOver(const PendingRange &A, const PendingRange &B, const char *Pool) {
  if ((A.Name < 0) != (B.Name < 0))
    return A.Name < 0;
  if (A.Name < 0)
    return !A.Own && B.Own;
  if (A.Global != B.Global)
    return A.Global;
  const char *NA = Pool + A.Name + NativePrefixLength,
             *NB = Pool + B.Name + NativePrefixLength;
  if ((NA[0] == '_') != (NB[0] == '_'))
    return NB[0] == '_';
  size_t LA = strlen(NA), LB = strlen(NB);
  if (LA != LB)
    return LA < LB;
  return strcmp(NA, NB) < 0;
}

/// Sorts P[0, N) by Start, stably, with Temp room for N more: a
/// least-significant-digit radix sort, one pass per byte in which the
/// starts differ (five or six). No comparisons: std::sort's mispredicted
/// branches took most of a short program's start-up.
void sortByStart(PendingRange *P, PendingRange *Temp, size_t N) {
  uintptr_t Differ = 0;
  for (size_t I = 1; I < N; ++I)
    Differ |= P[I].Start ^ P[0].Start;
  PendingRange *From = P, *To = Temp;
  for (unsigned Shift = 0; Shift < 64 && Differ >> Shift; Shift += 8) {
    if (!(Differ >> Shift & 0xff))
      continue;
    size_t Place[256] = {};
    for (size_t I = 0; I < N; ++I)
      ++Place[From[I].Start >> Shift & 0xff];
    size_t Sum = 0;
    for (size_t &Count : Place) {
      size_t C = Count;
      Count = Sum;
      Sum += C;
    }
    for (size_t I = 0; I < N; ++I)
      To[Place[From[I].Start >> Shift & 0xff]++] = From[I];
    PendingRange *Sorted = To;
    To = From;
    From = Sorted;
  }
  if (From != P)
    memcpy(P, From, N * sizeof(*P));
}

/// Turns pending ranges into final ones with descriptors. Returns false on
/// a failed allocation.
bool finish(Buffer &Pending, const char *Pool, Buffer &Out, Buffer &Frames,
            size_t &Count) {
  auto *P = reinterpret_cast<PendingRange *>(Pending.Data);
  size_t N = Pending.Size / sizeof(PendingRange);
  Count = 0;
  if (N == 0)
    return true;
  // The descriptors' memory (one per range at most) is the sort's first.
  static_assert(sizeof(spinelprof_frame_descriptor) >= sizeof(PendingRange),
                "the descriptors' memory holds the pending ranges");
  auto *Descs = static_cast<spinelprof_frame_descriptor *>(
      Frames.grow(N * sizeof(spinelprof_frame_descriptor)));
  if (!Descs)
    return false;
  sortByStart(P, reinterpret_cast<PendingRange *>(Descs), N);
  // Keep one entry per start address.
  size_t Kept = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Kept && P[Kept - 1].Start == P[I].Start) {
      if (preferOver(P[I], P[Kept - 1], Pool))
        P[Kept - 1] = P[I];
      continue;
    }
    P[Kept++] = P[I];
  }
  auto *Ranges = static_cast<NativeRange *>(Out.grow(Kept * sizeof(NativeRange)));
  if (!Ranges)
    return false;
  for (size_t I = 0; I < Kept; ++I) {
    Ranges[I].Start = P[I].Start;
    Ranges[I].End = P[I].Start + P[I].Size;
    Ranges[I].Frame = P[I].Own;
    if (P[I].Name < 0)
      continue;
    spinelprof_frame_descriptor &D = Descs[I];
    D.abi_version = SPINELPROF_ABI_VERSION;
    D.kind = SPINELPROF_KIND_RUNTIME;
    D.line = 0;
    D.flags = 0;
    D.name = Pool + P[I].Name;
    D.c_name = Pool + P[I].Name + NativePrefixLength;
    D.file = Pool + P[I].File;
    Ranges[I].Frame = &D;
  }
  Count = Kept;
  return true;
}

/// The objects of the segments finish() kept, in the same order (it left
/// them sorted at the front of Pending). Returns false on a failed
/// allocation.
bool segmentObjects(const Buffer &Pending, size_t Count, const Buffer &PendingObjects,
                    const char *Pool, Buffer &Out) {
  if (Count == 0)
    return true;
  const auto *P = reinterpret_cast<const PendingRange *>(Pending.Data);
  const auto *Of = reinterpret_cast<const PendingObject *>(PendingObjects.Data);
  auto *Objects = static_cast<NativeObject *>(Out.grow(Count * sizeof(NativeObject)));
  if (!Objects)
    return false;
  for (size_t I = 0; I < Count; ++I) {
    const PendingObject &O = Of[P[I].Object];
    Objects[I] = {Pool + O.Path, Pool + O.BuildId, O.Bias};
  }
  return true;
}

/// Puts the plugin's descriptors that have a C name into B, sorted by it
/// for binary search, and marks their prefixes. False on a failed
/// allocation.
bool collectInstrumented(Builder &B) {
  const spinelprof_frame_descriptor *First = __start_spinelprof_frames;
  const spinelprof_frame_descriptor *Last = __stop_spinelprof_frames;
  if (!First || !Last || First >= Last)
    return true;
  size_t N = size_t(Last - First);
  B.Instrumented = static_cast<const spinelprof_frame_descriptor **>(
      B.InstrumentedStorage.grow(N * sizeof(*B.Instrumented)));
  if (!B.Instrumented)
    return false;
  for (size_t I = 0; I < N; ++I)
    if (First[I].abi_version == SPINELPROF_ABI_VERSION && First[I].c_name &&
        First[I].c_name[0]) {
      B.Instrumented[B.InstrumentedCount++] = &First[I];
      unsigned Prefix = prefixOf(First[I].c_name, strlen(First[I].c_name));
      B.Prefixes[Prefix / 64] |= uint64_t(1) << (Prefix % 64);
    }
  qsort(B.Instrumented, B.InstrumentedCount, sizeof(*B.Instrumented),
        compareDescriptors);
  return true;
}

/// The table's memory while it is built from a Builder's pending ranges.
struct TableBuffers {
  Buffer Functions, Segments, Frames, SegmentFrames, Objects;
  size_t FunctionCount = 0, SegmentCount = 0;

  /// Sorts and names B's ranges into these buffers; false on a failed
  /// allocation (B's own or one here).
  bool build(Builder &B) {
    return !B.Pool.Failed && !B.Functions.Failed && !B.Segments.Failed &&
           !B.Objects.Failed &&
           finish(B.Functions, B.Pool.Data, Functions, Frames, FunctionCount) &&
           finish(B.Segments, B.Pool.Data, Segments, SegmentFrames, SegmentCount) &&
           segmentObjects(B.Segments, SegmentCount, B.Objects, B.Pool.Data,
                          Objects);
  }
  void release() {
    for (Buffer *X : {&Functions, &Segments, &Frames, &SegmentFrames, &Objects})
      X->release();
  }
  /// Makes the buffers read-only and points the table at them.
  void publish() {
    for (Buffer *X : {&Functions, &Segments, &Frames, &SegmentFrames, &Objects})
      X->makeReadOnly();
    Table.Functions = reinterpret_cast<const NativeRange *>(Functions.Data);
    Table.FunctionCount = FunctionCount;
    Table.Segments = reinterpret_cast<const NativeRange *>(Segments.Data);
    Table.SegmentObjects = reinterpret_cast<const NativeObject *>(Objects.Data);
    Table.SegmentCount = SegmentCount;
  }
};

} // namespace

int initNativeFrames() {
  if (__atomic_load_n(&Ready, __ATOMIC_ACQUIRE))
    return 0;
  Builder B;
  if (!collectInstrumented(B))
    return ENOMEM;
  dl_iterate_phdr(addObject, &B);
  TableBuffers T;
  bool Ok = T.build(B) && initNativeAddresses() == 0;
  B.InstrumentedStorage.release();
  B.Functions.release();
  B.Segments.release();
  B.Objects.release();
  if (!Ok) {
    B.Pool.release();
    T.release();
    return ENOMEM;
  }
  B.Pool.makeReadOnly();
  T.publish();
  __atomic_store_n(&Ready, true, __ATOMIC_RELEASE);
  return 0;
}

// Async-signal-safe: reads only the immutable table published above, and
// for an address no symbol covers, unnamedAddressFrame (async-signal-safe).
const spinelprof_frame_descriptor *nativeFrameAt(uintptr_t Pc) {
  if (!__atomic_load_n(&Ready, __ATOMIC_ACQUIRE) || Pc == 0)
    return nullptr;
  const NativeRange *F = Table.Functions;
  size_t Low = 0, High = Table.FunctionCount;
  // The last range starting at or before Pc.
  while (Low < High) {
    size_t Mid = Low + (High - Low) / 2;
    if (F[Mid].Start <= Pc)
      Low = Mid + 1;
    else
      High = Mid;
  }
  if (Low > 0 && Pc < F[Low - 1].End)
    return F[Low - 1].Frame;
  // No symbol covers Pc: the tool names it from the object's debug file.
  for (size_t I = 0; I < Table.SegmentCount; ++I)
    if (Table.Segments[I].Start <= Pc && Pc < Table.Segments[I].End)
      return unnamedAddressFrame(Pc, Table.Segments[I].Frame,
                                 &Table.SegmentObjects[I]);
  return nullptr;
}

} // namespace spinelprof

extern "C" {
/// Test hooks: let a C program (test/Runtime/spinel-native-table.c) build
/// the table and look addresses up directly. Same contracts as above.
int __spinelprof_test_init_native_frames() {
  return spinelprof::initNativeFrames();
}
const spinelprof_frame_descriptor *
__spinelprof_test_native_frame_at(uintptr_t Pc) {
  return spinelprof::nativeFrameAt(Pc);
}
}
