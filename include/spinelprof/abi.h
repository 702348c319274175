/*===- spinelprof/abi.h - The contract between plugin and runtime -*- C -*-===*
 *
 * The one header that owns the ABI shared by the compile-time part (the LLVM
 * pass plugin, which emits IR that must match this layout) and the run-time
 * part (libspinelprof_rt.a, which defines the shadow stack and reads the
 * descriptors). The plugin mirrors these names and numbers as constants; the
 * lit test test/Instrumentation/abi-contract.test checks that both agree.
 *
 * Usable from C and C++. Bump SPINELPROF_ABI_VERSION on any layout change
 * (new symbols and flag bits, which old descriptors stay valid under, are
 * not one).
 *===----------------------------------------------------------------------===*/
#ifndef SPINELPROF_ABI_H
#define SPINELPROF_ABI_H

#include <stdint.h>

#define SPINELPROF_ABI_VERSION 1

/* Frames a shadow stack holds. Deeper pushes land in the sink slots from
 * index SPINELPROF_STACK_CAPACITY on (never out of bounds) and the depth
 * stays above the capacity (it saturates a little past it: see Push), so a
 * reader shows them as one "[truncated]" frame. */
#define SPINELPROF_STACK_CAPACITY 4096

/* The sink slots after the CAPACITY frames: a push nested k levels inside
 * another frame of its function stores at that frame's slot + k, for k
 * below this less one (see Push, below). */
#define SPINELPROF_STACK_SINK_SLOTS 16

/* The ELF section holding every frame descriptor (a C identifier, so the
 * linker provides __start_/__stop_ bounds). */
#define SPINELPROF_DESCRIPTOR_SECTION "spinelprof_frames"

/* The thread-local shadow stack symbol, defined by the runtime, which is
 * linked into the executable. The plugin reaches it local-exec from code
 * compiled for an executable (PIE or not PIC), initial-exec from PIC code
 * (a shared library's); the declarations below are initial-exec, which
 * serves both. */
#define SPINELPROF_STACK_SYMBOL "__spinelprof_stack"

/* The thread-local allocation countdown (int64_t, zero initialised, TLS
 * reached as the shadow stack is): bytes left before the thread's next allocation sample.
 * Instrumented code does, before each allocation it marks (at the call,
 * or at the entry of a copy or wrapper of the allocator that the call goes
 * to, with the caller's frames the stack's top: a copy whose frame its
 * caller pushed takes that frame off around the runtime's call):
 *   c = countdown - size;  countdown = c;
 *   if (c < 0) SPINELPROF_ALLOC_SAMPLE_SYMBOL(size, &type_descriptor);
 * The runtime's function draws the next countdown (INT64_MAX while
 * allocation profiling is off, so the branch is then never taken again). */
#define SPINELPROF_ALLOC_COUNTDOWN_SYMBOL "__spinelprof_alloc_countdown"

/* void (uint64_t size, const struct spinelprof_frame_descriptor *type):
 * called on the allocating thread when its countdown goes below zero. The
 * type descriptor is a synthetic frame "alloc Foo" (kind synthetic, flag
 * SPINELPROF_FLAG_ALLOC) emitted by the plugin, one per type and module,
 * outside SPINELPROF_DESCRIPTOR_SECTION (it is no function). */
#define SPINELPROF_ALLOC_SAMPLE_SYMBOL "__spinelprof_alloc_sample"

/* Bits of spinelprof_frame_descriptor::flags. */
/* The frame stands for a blocking call (a synthetic "[blocked read]" or
 * "[sleep]" frame pushed by the runtime around it): while it is on top the
 * thread's shadow stack does not change, so the sampler reads it from
 * outside instead of signalling the thread. */
#define SPINELPROF_FLAG_BLOCKING 0x1u
/* The frame names an allocated type ("alloc Foo"): the leaf of every stack
 * of an allocation profile. */
#define SPINELPROF_FLAG_ALLOC 0x2u
/* The function has this descriptor but no push or pop (a small leaf, see
 * plugin/FramePolicy.h): the runtime finds the function's symbol by c_name
 * and names a sample by its program counter instead, making this frame the
 * leaf. For a function that calls nothing that is exact; where it was
 * inlined its time is its caller's. */
#define SPINELPROF_FLAG_PC_NAMED 0x4u

/* What a frame is. Stored in spinelprof_frame_descriptor::kind. */
enum spinelprof_frame_kind {
  SPINELPROF_KIND_USER = 0,      /* a Ruby method (or plain C in the program) */
  SPINELPROF_KIND_BLOCK = 1,     /* a block, proc, lambda or fiber body */
  SPINELPROF_KIND_RUNTIME = 2,   /* a Spinel runtime helper (from a header) */
  SPINELPROF_KIND_GC = 3,        /* the garbage collector */
  SPINELPROF_KIND_SYNTHETIC = 4  /* made up by spinelprof: [truncated], ... */
};

/* One per instrumented (or PC-named) function, emitted by the plugin as a
 * private constant in SPINELPROF_DESCRIPTOR_SECTION. Its address is what the
 * shadow stack holds. All strings are NUL-terminated; file may be "" and line 0. */
struct spinelprof_frame_descriptor {
  uint32_t abi_version;   /* SPINELPROF_ABI_VERSION */
  uint32_t kind;          /* enum spinelprof_frame_kind */
  uint32_t line;          /* source line of the definition, 0 if unknown */
  uint32_t flags;         /* SPINELPROF_FLAG_*; 0 or
                             SPINELPROF_FLAG_PC_NAMED in plugin
                             descriptors of functions */
  const char *name;       /* display name: "Geo::Vec#zero?" */
  const char *c_name;     /* C symbol: "sp_Geo_Vec_zero_p" */
  const char *file;       /* source file: "app.rb", "app.c", "" */
};

/* The per-thread shadow stack.
 *
 * Push (at function entry), as the plugin emits it, on the thread's
 * __spinelprof_stack (in a fiber too: the runtime's context-switch
 * wrappers copy a suspended context's frames out and back in):
 *   d = min(depth, CAPACITY + 1);               plain load, saturated
 *   frames[d] = &descriptor;                    volatile store
 *   depth = d + 1;                              volatile store
 * (Past the capacity the depth saturates, so that d alone, not the loaded
 * depth and a clamped slot index, is what the function keeps for its pops
 * and nested pushes; the depth a reader sees stays above the capacity.)
 * A push nested k levels inside a frame of the same function (an inlined
 * callee's, 1 <= k < SPINELPROF_STACK_SINK_SLOTS - 1; k = 0 for one in the
 * place of a frame already popped) loads nothing: with d that frame's
 * d, frames[d + k] = &descriptor; depth = d + k + 1.
 * Every path to it has the same frames open (a call returns with the depth
 * it was called with), so it is the slot and depth the load would give,
 * except past the capacity, where both are sink slots. Where the next
 * marker is a push in the slot right above (no call between, on the only
 * path), the lower push may store both slots in one 16-byte store; the
 * upper one is above the depth until the upper push stores the depth.
 * Pop (before every return): depth = d (the value saved at entry), so a frame
 * abandoned by longjmp heals at the caller's next return. An inlined
 * callee's pop is left out where the next marker stores the depth (a pop,
 * or a push in the popped frame's own slot), with no call and at most two
 * instructions between (plugin/SupersededPops.h): a sample there sees that
 * frame open a little longer. In a function of
 * more than 64 pushes (its own and inlined callees'; plugin/StaticDepths.h)
 * a pop is depth = depth - 1 and a nested push stands only on a frame pushed
 * or popped in its own basic block: saved depths live across all of such a
 * function cost the compiler more than they save. There a frame abandoned
 * by longjmp heals at the re-push after setjmp (Spinel's rescue) or a
 * smaller caller's return, not at the next pop. After each call to
 * a returns_twice function the caller pushes its own frame again (its slot,
 * d + 1). A self tail call is preceded by the pop instead of followed by it,
 * so that the compiler can still make it a loop (the frame is then there
 * once).
 *
 * The only reader is the thread itself, in its signal handler, so the
 * stores need no fence against other CPUs. They are volatile so that
 * dead-store elimination cannot delete a leaf's push (the pop overwrites
 * its depth with nothing in between that reads it) and so that the slot is
 * written before the depth publishes it. They carry a TBAA type of their
 * own, so they do not stop the compiler from keeping the program's other
 * values in registers. */
struct spinelprof_shadow_stack {
  /* Must stay the first field: the plugin stores to the struct's address. */
  uint32_t depth;     /* frames pushed; above SPINELPROF_STACK_CAPACITY:
                         truncated (a saturated count, not the frames') */
  uint32_t reserved;  /* 0; keeps frames 8-byte aligned (code instrumented
                         by older plugins counts its pushes here) */
  const struct spinelprof_frame_descriptor
      *frames[SPINELPROF_STACK_CAPACITY + SPINELPROF_STACK_SINK_SLOTS];
};

#ifdef __cplusplus
extern "C" {
#endif
/* Defined by the runtime; every instrumented function references it. */
extern __thread struct spinelprof_shadow_stack __spinelprof_stack
    __attribute__((tls_model("initial-exec")));
/* See SPINELPROF_ALLOC_COUNTDOWN_SYMBOL and SPINELPROF_ALLOC_SAMPLE_SYMBOL. */
extern __thread int64_t __spinelprof_alloc_countdown
    __attribute__((tls_model("initial-exec")));
void __spinelprof_alloc_sample(uint64_t size,
                               const struct spinelprof_frame_descriptor *type);
#ifdef __cplusplus
}
#endif

#endif /* SPINELPROF_ABI_H */
