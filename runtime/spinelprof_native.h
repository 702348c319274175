//===- spinelprof_native.h - Naming time spent outside instrumented code -*- C++ -*-===//
//
// Time spent in code compiled without the plugin (libc's memcpy, Spinel's
// regexp and bigint library) would otherwise be charged to the instrumented
// caller. At start-up the runtime builds a sorted table of the functions of
// the loaded objects, each non-instrumented one with a synthetic descriptor
// "[native] NAME" of kind runtime; the handler looks the interrupted program
// counter up in it and, when it falls outside instrumented code, records
// that descriptor as the sample's leaf. Small leaves the plugin gave no
// push (SPINELPROF_FLAG_PC_NAMED) are named the same way, with their own
// descriptor.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_NATIVE_H
#define SPINELPROF_NATIVE_H

#include "spinelprof/abi.h"

#include <stdint.h>

extern "C" {
/// Bounds of the descriptors the plugin emitted into this executable. Weak:
/// a program without instrumented code has none.
extern const spinelprof_frame_descriptor __start_spinelprof_frames[]
    __attribute__((weak, visibility("hidden")));
extern const spinelprof_frame_descriptor __stop_spinelprof_frames[]
    __attribute__((weak, visibility("hidden")));
}

namespace spinelprof {

/// Reads the symbol tables of the loaded objects and builds the table.
/// Start-up only, before the timer runs. Returns 0 or an errno; on failure
/// nativeFrameAt always answers nullptr.
int initNativeFrames();

/// The "[native] NAME" descriptor of the non-instrumented function that
/// contains Pc, the plugin's descriptor when that function is a PC-named
/// leaf of the executable (SPINELPROF_FLAG_PC_NAMED), or nullptr when Pc is
/// in instrumented code or unknown. In an object's code that no symbol
/// covers: a "[native] OBJECT" descriptor of that address
/// (unnamedAddressFrame).
/// Async-signal-safe (a binary search over read-only memory, then a bounded
/// lock-free probe of preallocated memory); any thread.
const spinelprof_frame_descriptor *nativeFrameAt(uintptr_t Pc);

} // namespace spinelprof

#endif // SPINELPROF_NATIVE_H
