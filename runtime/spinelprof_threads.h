//===- spinelprof_threads.h - Registered threads and their stacks -*- C++ -*-===//
//
// The threads the sampler watches, each with its CPU clock, its shadow
// stack and what the sampler needs between ticks; fibers' shadow stacks;
// and the hooks the libc wrappers (spinelprof_interpose.h) call.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_THREADS_H
#define SPINELPROF_THREADS_H

#include "spinelprof_sample_table.h"

#include <atomic>
#include <stdint.h>
#include <time.h>

namespace spinelprof {

/// One registered thread. Written by the thread itself (registration,
/// blocking calls) and by the sampler thread (the tick bookkeeping).
struct ThreadSlot {
  enum : uint32_t { Free = 0, Claimed = 1, Active = 2, Leaving = 3 };
  std::atomic<uint32_t> State;
  /// Set by the sampler while it reads the thread's memory from outside;
  /// a leaving thread waits for it to clear.
  std::atomic<uint32_t> Busy;
  /// Odd while the thread is inside a blocking call (SIGPROF blocked, a
  /// blocking frame on top); bumped on entry and on exit.
  std::atomic<uint32_t> BlockSeq;
  /// Odd while the thread changes which shadow stack it uses (a fiber
  /// switch: the offset, a fiber's resumer); bumped before and after, so
  /// that a copy from outside can tell it read one fiber chain.
  std::atomic<uint32_t> SwitchSeq;
  std::atomic<uint32_t> Named;
  uint32_t Tid;
  clockid_t CpuClock;
  spinelprof_shadow_stack *OwnStack;
  intptr_t *OffsetVar;
  /// The sample in flight: the stack the sampler copied when the sample
  /// was due, waiting for the thread's SIGPROF handler to add the native
  /// leaf (the interrupted PC) and record it. Whoever moves SnapState from
  /// SnapReady to SnapTaken (the handler, the sampler, the leaving thread)
  /// owns the fields below until it stores SnapEmpty, or SnapReturned: the
  /// handler gives the sample back for the sampler to take again.
  enum : uint32_t { SnapEmpty = 0, SnapReady = 1, SnapTaken = 2,
                    SnapReturned = 3 };
  std::atomic<uint32_t> SnapState;
  /// Set when no exact copy could be read (the thread kept pushing or
  /// popping while it was read): SnapFrames holds nothing, and the
  /// handler records its own stack, or gives the sample back if a
  /// syscall delivered the signal late.
  bool SnapLive;
  /// Cpu mode: the thread was off the CPU while it was copied, so the copy
  /// shows where the scheduler stopped it; the handler checks where that
  /// was.
  bool SnapStopped;
  uint32_t Returns; // Handler only: samples given back in a row.
  uint32_t SnapLength;              // Frames in SnapFrames.
  const FrameDescriptor **SnapFrames; // StackCopyCapacity entries, mapped
                                      // on first use, kept with the slot.
  const FrameDescriptor *SnapLeaf;  // Synthetic leaf, or null.
  const FrameDescriptor *SnapTop;   // Top frame of the stack in use, or null.
  uint32_t SnapCount;               // Samples it stands for,
  uint64_t SnapWeightNs;            // and their CPU or wall time.
  uint64_t SnapSentNs;              // When the signal was sent (monotonic).
  // The sampler thread's own bookkeeping.
  uint64_t LastCpuNs;
  uint64_t LastSampleNs;  // Cpu mode: the thread's CPU clock at its last sample.
  uint64_t LastWallNs;    // Wall mode: CLOCK_MONOTONIC at its last sample.
  int64_t CreditNs;
};

/// Sets up the registry and registers the calling (main) thread. Start-up.
int initThreads();

/// Registers / unregisters the calling thread. Normal context.
void registerCurrentThread();
void unregisterCurrentThread();

/// The calling thread's slot, or null. Async-signal-safe.
ThreadSlot *currentThreadSlot();

/// Number of slots ever claimed (an upper bound for the sampler's walk), and
/// slot I. Any thread.
uint32_t threadSlotLimit();
ThreadSlot &threadSlot(uint32_t I);

/// Fills S with the frames of the shadow stack at Own + Offset and of the
/// stacks that resumed it (a fiber's), with "[fiber]" markers between, and
/// the synthetic leaf for a truncated or empty stack. Reads memory in
/// place: only for the stack's own thread (a signal handler) or a thread
/// that is blocked. Async-signal-safe.
void viewStack(const spinelprof_shadow_stack *Own, intptr_t Offset,
               StackView &S);

/// Room for a flattened copy of any stack viewStack shows.
constexpr uint32_t StackCopyCapacity =
    (SPINELPROF_STACK_CAPACITY + 2) * ((StackView::MaxSegments + 1) / 2);

/// A validated copy of another thread's stack, in a caller's buffer.
struct StackCopy {
  uint32_t Length;              // Frames copied ("[fiber]" markers included).
  const FrameDescriptor *Leaf;  // As StackView::Leaf.
  const FrameDescriptor *Top;   // Top frame of the stack in use, or null.
};

/// Copies the stack thread T is using now (its fiber chain included) into
/// Buffer (StackCopyCapacity entries), read from another thread while T
/// runs: exactly the stack T had at one moment during the copy, or
/// nothing. Returns false if no exact copy was read (T pushed, popped or
/// switched fibers during each try): Out is then empty (no frames, Leaf or
/// Top). Sampler thread only; T is Busy and Active.
bool copyStack(const ThreadSlot &T, const FrameDescriptor **Buffer,
               StackCopy &Out);

/// The top frame of the stack at Own + Offset, or null if it is empty, as
/// copyStack's Top. Async-signal-safe; the stack's own thread.
const FrameDescriptor *stackTop(const spinelprof_shadow_stack *Own,
                                intptr_t Offset);

/// Where a sample in flight whose copy failed (SnapLive) gets its stack
/// when its signal never came: the calling thread's own stack (T's own
/// thread), a new copy (the sampler thread, holding T), or none
/// ("[unknown]").
enum class Fallback { OwnStack, Recopy, Unknown };

/// Records T's sample in flight, if one is waiting, without a native
/// leaf. Async-signal-safe; any thread (see Fallback).
void recordSnapshotWithoutLeaf(ThreadSlot &T, Fallback F);

/// Gives T's thread id its name in the sample table, once: read with prctl
/// on the thread itself, else from /proc/self/task/TID/comm. The process's
/// first thread is "main". Async-signal-safe.
void nameThread(ThreadSlot &T, bool OnItsOwnThread);

/// The synthetic frames.
extern const FrameDescriptor TruncatedFrame;
extern const FrameDescriptor UnknownFrame;

/// After fork, in the child: the registry holds only the calling thread
/// (with its new tid). Normal context (the child of fork).
void resetThreadsAfterFork();

} // namespace spinelprof

#endif // SPINELPROF_THREADS_H
