//===- spinelprof_native.cpp - Naming time outside instrumented code ------===//
//
// Placeholder until the symbol-table reader lands: nothing is named native.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_native.h"

namespace spinelprof {

int initNativeFrames() { return 0; }

// Async-signal-safe: reads nothing.
const spinelprof_frame_descriptor *nativeFrameAt(uintptr_t) { return nullptr; }

} // namespace spinelprof
