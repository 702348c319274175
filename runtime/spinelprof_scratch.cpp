//===- spinelprof_scratch.cpp - The writer's memory, from mmap ------------===//
//
// Part of spinelprof. See spinelprof_scratch.h. Each block is its own
// mapping, its size kept in a header in front of it; the writer makes a
// dozen blocks per profile, so the system calls do not matter.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_scratch.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

namespace spinelprof {

namespace {
struct alignas(16) Header {
  size_t MappedSize;
};
} // namespace

static Header *headerOf(void *P) { return static_cast<Header *>(P) - 1; }

void *scratchAlloc(size_t Size) {
  if (Size > SIZE_MAX / 2)
    return nullptr;
  size_t Mapped = sizeof(Header) + Size;
  void *M = mmap(nullptr, Mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (M == MAP_FAILED)
    return nullptr;
  auto *H = static_cast<Header *>(M);
  H->MappedSize = Mapped;
  return H + 1;
}

void *scratchRealloc(void *P, size_t Size) {
  if (!P)
    return scratchAlloc(Size);
  Header *Old = headerOf(P);
  if (Size > SIZE_MAX / 2)
    return nullptr;
  size_t Mapped = sizeof(Header) + Size;
  void *M = mremap(Old, Old->MappedSize, Mapped, MREMAP_MAYMOVE);
  if (M == MAP_FAILED)
    return nullptr;
  auto *H = static_cast<Header *>(M);
  H->MappedSize = Mapped;
  return H + 1;
}

void scratchFree(void *P) {
  if (!P)
    return;
  Header *H = headerOf(P);
  munmap(H, H->MappedSize);
}

} // namespace spinelprof
