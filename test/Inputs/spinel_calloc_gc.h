/* The shape of the allocator in Spinel's own runtime header (not
 * examples/sp_runtime.h's page allocator): one external sp_gc_alloc, too
 * large to inline, that collects past a byte threshold (raised when the
 * survivors near it) and callocs every object onto one heap list. Included by one test program each. */
#ifndef SPINEL_CALLOC_GC_H
#define SPINEL_CALLOC_GC_H

#include <stdint.h>
#include <stdlib.h>

typedef struct sp_gc_hdr {
  struct sp_gc_hdr *next;
  void (*scan)(void *);
  size_t size;
  int marked;
} sp_gc_hdr;

static sp_gc_hdr *sp_gc_heap;
static size_t sp_gc_bytes;
static size_t sp_gc_threshold = 8u << 20;
static void **sp_gc_roots[64];
static int sp_gc_nroots;

static void sp_gc_mark(void *obj) {
  if (!obj)
    return;
  sp_gc_hdr *h = (sp_gc_hdr *)obj - 1;
  if (h->marked)
    return;
  h->marked = 1;
  if (h->scan)
    h->scan(obj);
}

static void sp_gc_sweep(void) {
  sp_gc_hdr **link = &sp_gc_heap;
  while (*link) {
    sp_gc_hdr *h = *link;
    if (h->marked) {
      h->marked = 0;
      link = &h->next;
    } else {
      *link = h->next;
      sp_gc_bytes -= h->size;
      free(h);
    }
  }
}

static void sp_gc_collect(void) {
  for (int i = 0; i < sp_gc_nroots; i++)
    sp_gc_mark(*sp_gc_roots[i]);
  sp_gc_sweep();
}

__attribute__((noinline)) void *sp_gc_alloc(size_t size,
                                            void (*finalize)(void *),
                                            void (*scan)(void *)) {
  (void)finalize;
  if (sp_gc_bytes > sp_gc_threshold) {
    sp_gc_collect();
    if (sp_gc_bytes > sp_gc_threshold / 2)
      sp_gc_threshold = sp_gc_bytes * 2;
  }
  size_t need = sizeof(sp_gc_hdr) + size;
  sp_gc_hdr *h = (sp_gc_hdr *)calloc(1, need);
  h->scan = scan;
  h->size = need;
  h->next = sp_gc_heap;
  sp_gc_heap = h;
  sp_gc_bytes += need;
  return h + 1;
}

#endif
