//===- spinelprof_native_addresses.h - Native PCs left for the tool to name -*- C++ -*-===//
//
// A PC in a loaded object's code that no symbol the runtime read covers
// (libc's .symtab is stripped: _int_malloc, __strchr_avx2) is kept as its
// object and its address in that object, with a descriptor of its own named
// "[native] OBJECT". The writer puts object, build-id and address in the
// .sprof frame (docs/formats.md, version 3) and `spinel-prof` names it at
// report time from the object's separate debug file, so reading debug files
// adds nothing to the program's start-up. The table is fixed-size and
// preallocated; when it is full an address gets the object's shared
// "[native] OBJECT" descriptor, as before.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_NATIVE_ADDRESSES_H
#define SPINELPROF_NATIVE_ADDRESSES_H

#include "spinelprof/abi.h"

#include <stdint.h>

namespace spinelprof {

/// A loaded object, as the native table knows it. Immutable once built.
struct NativeObject {
  const char *Path;    // as the dynamic loader names it ("/proc/self/exe"'s target for the program)
  const char *BuildId; // lower-case hex of NT_GNU_BUILD_ID, "" when none
  uintptr_t Base;      // load bias: PC - Base is the address in the ELF file
};

/// Maps the table. Start-up only, before the timer runs. Returns 0 or an
/// errno; on failure unnamedAddressFrame answers ObjectFrame.
int initNativeAddresses();

/// The descriptor of Pc, an address of Object that no symbol covers: one per
/// distinct Pc, named as ObjectFrame ("[native] libc.so.6"); ObjectFrame
/// itself when the table is full or not mapped.
/// Async-signal-safe (lock-free compare-and-swap on preallocated memory, a
/// bounded probe, no libc); any thread.
const spinelprof_frame_descriptor *
unnamedAddressFrame(uintptr_t Pc, const spinelprof_frame_descriptor *ObjectFrame,
                    const NativeObject *Object);

/// When D is a descriptor unnamedAddressFrame made: its object and the
/// address in it. The writer's: async-signal-safe (atomic loads only).
bool nativeAddressOf(const spinelprof_frame_descriptor *D,
                     const NativeObject **Object, uint64_t *Address);

} // namespace spinelprof

#endif // SPINELPROF_NATIVE_ADDRESSES_H
