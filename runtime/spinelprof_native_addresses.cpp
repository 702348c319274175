//===- spinelprof_native_addresses.cpp - Native PCs left for the tool -----===//
//
// An open-addressing table of AddressSlots keyed by PC, mapped once at
// start-up (anonymous memory: untouched pages cost nothing). The signal
// handler claims a slot with compare-and-swap, fills its descriptor, and
// publishes it with a release store; a handler on another thread that finds
// the PC before it is published uses the object's shared descriptor for
// that one sample. Probes are bounded by MaxProbes.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_native_addresses.h"

#include <atomic>

#include <errno.h>
#include <sys/mman.h>

namespace spinelprof {

namespace {

struct AddressSlot {
  std::atomic<uintptr_t> Pc;      // 0 while free
  std::atomic<uint32_t> Ready;    // 1 once Object and Frame are written
  const NativeObject *Object;
  spinelprof_frame_descriptor Frame;
};

/// Distinct unnamed PCs kept: a string-heavy Spinel program has a few
/// thousand. A power of two.
constexpr size_t SlotCount = 1 << 15;
constexpr size_t MaxProbes = 64;

AddressSlot *Slots; // published with a release store, read with acquire

size_t slotOf(uintptr_t Pc) {
  return size_t((uint64_t(Pc) * 0x9E3779B97F4A7C15ull) >> 40) & (SlotCount - 1);
}

} // namespace

int initNativeAddresses() {
  if (__atomic_load_n(&Slots, __ATOMIC_ACQUIRE))
    return 0;
  void *P = mmap(nullptr, SlotCount * sizeof(AddressSlot), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return errno;
  // Zero-filled memory is an empty table (atomics of integers have the
  // integer's representation).
  __atomic_store_n(&Slots, static_cast<AddressSlot *>(P), __ATOMIC_RELEASE);
  return 0;
}

// Async-signal-safe: compare-and-swap and plain stores into memory mapped
// at start-up; no libc, no locks; at most MaxProbes slots looked at.
const spinelprof_frame_descriptor *
unnamedAddressFrame(uintptr_t Pc, const spinelprof_frame_descriptor *ObjectFrame,
                    const NativeObject *Object) {
  AddressSlot *Table = __atomic_load_n(&Slots, __ATOMIC_ACQUIRE);
  if (!Table || !Object || Pc == 0)
    return ObjectFrame;
  for (size_t Probe = 0, I = slotOf(Pc); Probe < MaxProbes;
       ++Probe, I = (I + 1) & (SlotCount - 1)) {
    AddressSlot &S = Table[I];
    uintptr_t Seen = S.Pc.load(std::memory_order_acquire);
    if (Seen == 0) {
      if (!S.Pc.compare_exchange_strong(Seen, Pc, std::memory_order_acq_rel)) {
        if (Seen != Pc)
          continue; // Another PC took it.
      } else {
        S.Object = Object;
        S.Frame = *ObjectFrame;
        S.Ready.store(1, std::memory_order_release);
        return &S.Frame;
      }
    }
    if (Seen == Pc)
      return S.Ready.load(std::memory_order_acquire) ? &S.Frame : ObjectFrame;
  }
  return ObjectFrame;
}

bool nativeAddressOf(const spinelprof_frame_descriptor *D,
                     const NativeObject **Object, uint64_t *Address) {
  AddressSlot *Table = __atomic_load_n(&Slots, __ATOMIC_ACQUIRE);
  if (!Table || !D)
    return false;
  uintptr_t At = reinterpret_cast<uintptr_t>(D);
  uintptr_t First = reinterpret_cast<uintptr_t>(Table);
  if (At < First || At >= First + SlotCount * sizeof(AddressSlot))
    return false;
  const AddressSlot &S = Table[(At - First) / sizeof(AddressSlot)];
  if (&S.Frame != D || !S.Ready.load(std::memory_order_acquire))
    return false;
  *Object = S.Object;
  *Address = uint64_t(S.Pc.load(std::memory_order_relaxed) - S.Object->Base);
  return true;
}

} // namespace spinelprof
