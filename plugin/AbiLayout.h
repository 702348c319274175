//===- AbiLayout.h - The IR layout of abi.h's structs ---------------------===//
//
// The field lists from which the plugin builds the IR types of the frame
// descriptor (InsertFrameMarkers) and the shadow stack (LowerFrameMarkers),
// checked against include/spinelprof/abi.h at build time: a change on
// either side fails the plugin's build.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_PLUGIN_ABILAYOUT_H
#define SPINELPROF_PLUGIN_ABILAYOUT_H

#include "spinelprof/abi.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace spinelprof {
namespace abi_layout {

/// A field of an IR struct the pass builds. The types are built from the
/// lists below, and the static_asserts prove the lists describe abi.h's
/// structs, so a change on either side fails the plugin's build.
enum class IRField { I32, Ptr };

constexpr IRField DescriptorFields[] = {IRField::I32, IRField::I32,
                                        IRField::I32, IRField::I32,
                                        IRField::Ptr, IRField::Ptr,
                                        IRField::Ptr};
/// {depth, reserved, frames[CAPACITY + SINK_SLOTS]}; the last entry is the array's
/// element type.
constexpr IRField ShadowStackFields[] = {IRField::I32, IRField::I32,
                                         IRField::Ptr};

enum DescriptorField : unsigned {
  DescAbiVersion,
  DescKind,
  DescLine,
  DescFlags,
  DescName,
  DescCName,
  DescFile
};
enum ShadowStackField : unsigned { StackDepth, StackReserved, StackFrames };

constexpr size_t fieldSize(IRField F) {
  return F == IRField::I32 ? sizeof(uint32_t) : sizeof(void *);
}

/// The offset of field \p Index under the natural alignment LLVM's default
/// data layouts give i32 and ptr on the host.
constexpr size_t fieldOffset(const IRField *Fields, size_t Index) {
  size_t Offset = 0;
  for (size_t I = 0;; ++I) {
    size_t Size = fieldSize(Fields[I]);
    Offset = (Offset + Size - 1) / Size * Size;
    if (I == Index)
      return Offset;
    Offset += Size;
  }
}

using Descriptor = spinelprof_frame_descriptor;
static_assert(std::size(DescriptorFields) == DescFile + 1);
static_assert(fieldOffset(DescriptorFields, DescAbiVersion) ==
              offsetof(Descriptor, abi_version));
static_assert(fieldOffset(DescriptorFields, DescKind) ==
              offsetof(Descriptor, kind));
static_assert(fieldOffset(DescriptorFields, DescLine) ==
              offsetof(Descriptor, line));
static_assert(fieldOffset(DescriptorFields, DescFlags) ==
              offsetof(Descriptor, flags));
static_assert(fieldOffset(DescriptorFields, DescName) ==
              offsetof(Descriptor, name));
static_assert(fieldOffset(DescriptorFields, DescCName) ==
              offsetof(Descriptor, c_name));
static_assert(fieldOffset(DescriptorFields, DescFile) ==
              offsetof(Descriptor, file));
static_assert(fieldOffset(DescriptorFields, DescFile) + sizeof(void *) ==
              sizeof(Descriptor));

using ShadowStack = spinelprof_shadow_stack;
static_assert(std::size(ShadowStackFields) == StackFrames + 1);
static_assert(fieldOffset(ShadowStackFields, StackDepth) ==
              offsetof(ShadowStack, depth));
static_assert(fieldOffset(ShadowStackFields, StackReserved) ==
              offsetof(ShadowStack, reserved));
static_assert(fieldOffset(ShadowStackFields, StackFrames) ==
              offsetof(ShadowStack, frames));
static_assert(sizeof(ShadowStack) ==
              offsetof(ShadowStack, frames) +
                  (SPINELPROF_STACK_CAPACITY + SPINELPROF_STACK_SINK_SLOTS) *
                      sizeof(void *));
static_assert(sizeof(ShadowStack::depth) == sizeof(uint32_t));
static_assert(sizeof(ShadowStack::reserved) == sizeof(uint32_t));
// The pass addresses the depth as the stack's own address.
static_assert(StackDepth == 0 && offsetof(ShadowStack, depth) == 0);

} // namespace abi_layout
} // namespace spinelprof

#endif // SPINELPROF_PLUGIN_ABILAYOUT_H
