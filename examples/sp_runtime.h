/*===- sp_runtime.h - A miniature Spinel runtime header -----------*- C -*-===*
 *
 * A miniature of the runtime header Spinel's generated C includes, for
 * examples and tests; not Spinel's code. Like the real one, everything here
 * is `static` or `static inline` and so is compiled inside the program's
 * translation unit: the profiler tells these helpers from the program's own
 * methods by where they are defined (this header) rather than by name.
 *
 * What it has: a mark-and-sweep GC (sp_gc_*), GC-managed strings and pointer
 * arrays of polymorphic values, raise/rescue and catch/throw over setjmp/longjmp, and output.
 *===----------------------------------------------------------------------===*/
#ifndef SP_RUNTIME_H
#define SP_RUNTIME_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t mrb_int;
typedef double mrb_float;
typedef int mrb_bool;

/* ---- GC ---------------------------------------------------------------- */

/* Every GC object is preceded by this header. Objects live in 64 KB pages
 * of equal-size slots, one page list for all size classes; sp_gc_sweep walks
 * the pages and threads dead slots onto a free list per class. Strings (and
 * the rare object too big for a slot) are malloc'd and kept on lists of
 * their own; sp_str_sweep sweeps the strings. */
typedef struct sp_gc_hdr {
  struct sp_gc_hdr *next; /* free-list or list link */
  void (*finalize)(void *);
  void (*scan)(void *);
  uint32_t size;
  uint8_t marked;
  uint8_t used;
} sp_gc_hdr;

typedef struct sp_gc_page {
  struct sp_gc_page *next;
  uint32_t slot_size;
  uint32_t nslots;
} sp_gc_page;

#define SP_GC_PAGE_BYTES (64 * 1024)
#define SP_GC_CLASSES 4 /* slots of 64, 96, 128 and 160 bytes */

static sp_gc_page *sp_gc_pages;
static sp_gc_hdr *sp_gc_free[SP_GC_CLASSES];
static sp_gc_hdr *sp_gc_big;       /* objects too big for a slot */
static sp_gc_hdr *sp_str_heap;     /* strings */
static size_t sp_gc_bytes;         /* allocated since the last collection */
#ifndef SP_GC_THRESHOLD
#define SP_GC_THRESHOLD (4u << 20)
#endif
static size_t sp_gc_threshold = SP_GC_THRESHOLD;
static size_t sp_gc_live;          /* objects and strings alive after a sweep */
static mrb_int sp_gc_runs;
static void *sp_gc_exc_root;       /* the message of the exception in flight */

/* The root stack: addresses of local variables that hold GC pointers. */
#define SP_GC_MAX_ROOTS 4096
static void **sp_gc_roots[SP_GC_MAX_ROOTS];
static int sp_gc_nroots;

static inline void sp_gc_root_restore(int *saved) { sp_gc_nroots = *saved; }
/* SP_GC_SAVE() at the top of a function, SP_GC_ROOT(v) per pointer local;
 * the roots go away when the function returns (cleanup attribute) or at an
 * explicit SP_GC_RESTORE(). A longjmp skips the cleanup: the rescuer puts
 * the root count back (see sp_exc_roots). */
#define SP_GC_SAVE() \
  int _sp_gc_saved __attribute__((cleanup(sp_gc_root_restore), unused)) = \
      sp_gc_nroots
#define SP_GC_ROOT(v) (sp_gc_roots[sp_gc_nroots++] = (void **)&(v))
#define SP_GC_RESTORE() (sp_gc_nroots = _sp_gc_saved)

static inline sp_gc_hdr *sp_gc_hdr_of(void *p) { return (sp_gc_hdr *)p - 1; }

static void sp_gc_mark(void *p) {
  if (!p)
    return;
  sp_gc_hdr *h = sp_gc_hdr_of(p);
  if (h->marked)
    return;
  h->marked = 1;
  if (h->scan)
    h->scan(p);
}

static void sp_gc_mark_all(void) {
  for (int i = 0; i < sp_gc_nroots; i++)
    sp_gc_mark(*sp_gc_roots[i]);
  sp_gc_mark(sp_gc_exc_root);
}

static void *sp_gc_xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("[BUG] out of memory\n", stderr);
    exit(1);
  }
  return p;
}

static inline sp_gc_hdr *sp_gc_slot(sp_gc_page *pg, uint32_t i) {
  return (sp_gc_hdr *)((char *)(pg + 1) + (size_t)i * pg->slot_size);
}

static void sp_gc_add_page(int cls) {
  sp_gc_page *pg = (sp_gc_page *)sp_gc_xmalloc(SP_GC_PAGE_BYTES);
  pg->slot_size = 32u * (uint32_t)(cls + 2);
  pg->nslots = (uint32_t)((SP_GC_PAGE_BYTES - sizeof *pg) / pg->slot_size);
  pg->next = sp_gc_pages;
  sp_gc_pages = pg;
  for (uint32_t i = pg->nslots; i-- > 0;) {
    sp_gc_hdr *h = sp_gc_slot(pg, i);
    h->used = 0;
    h->marked = 0;
    h->next = sp_gc_free[cls];
    sp_gc_free[cls] = h;
  }
}

static size_t sp_gc_sweep_list(sp_gc_hdr **list) {
  size_t live = 0;
  sp_gc_hdr **link = list;
  while (*link) {
    sp_gc_hdr *h = *link;
    if (h->marked) {
      h->marked = 0;
      live++;
      link = &h->next;
    } else {
      *link = h->next;
      if (h->finalize)
        h->finalize(h + 1);
      free(h);
    }
  }
  return live;
}

static size_t sp_gc_sweep(void) {
  size_t live = 0;
  for (sp_gc_page *pg = sp_gc_pages; pg; pg = pg->next) {
    int cls = (int)(pg->slot_size / 32) - 2;
    for (uint32_t i = 0; i < pg->nslots; i++) {
      sp_gc_hdr *h = sp_gc_slot(pg, i);
      if (!h->used)
        continue;
      if (h->marked) {
        h->marked = 0;
        live++;
        continue;
      }
      if (h->finalize)
        h->finalize(h + 1);
      h->used = 0;
      h->next = sp_gc_free[cls];
      sp_gc_free[cls] = h;
    }
  }
  return live + sp_gc_sweep_list(&sp_gc_big);
}

static size_t sp_str_sweep(void) { return sp_gc_sweep_list(&sp_str_heap); }

static void sp_gc_collect(void) {
  sp_gc_mark_all();
  sp_gc_live = sp_gc_sweep() + sp_str_sweep();
  sp_gc_bytes = 0;
  sp_gc_runs++;
}

/* Allocates without ever collecting (for the runtime's own use while the
 * new object's neighbours are not yet reachable). Zeroed memory. */
static void *sp_gc_alloc_nogc(size_t size, void (*finalize)(void *),
                              void (*scan)(void *)) {
  size_t total = sizeof(sp_gc_hdr) + size;
  sp_gc_hdr *h;
  if (total <= 32u * (SP_GC_CLASSES + 1)) {
    int cls = total <= 64 ? 0 : (int)((total + 31) / 32) - 2;
    if (!sp_gc_free[cls])
      sp_gc_add_page(cls);
    h = sp_gc_free[cls];
    sp_gc_free[cls] = h->next;
  } else {
    h = (sp_gc_hdr *)sp_gc_xmalloc(total);
    h->next = sp_gc_big;
    sp_gc_big = h;
  }
  memset(h + 1, 0, size);
  h->finalize = finalize;
  h->scan = scan;
  h->size = (uint32_t)size;
  h->marked = 0;
  h->used = 1;
  sp_gc_bytes += total;
  return h + 1;
}

static void *sp_gc_alloc(size_t size, void (*finalize)(void *),
                         void (*scan)(void *)) {
  if (sp_gc_bytes > sp_gc_threshold)
    sp_gc_collect();
  return sp_gc_alloc_nogc(size, finalize, scan);
}

/* ---- Strings ------------------------------------------------------------ */

typedef struct {
  mrb_int len;
  char ptr[];
} sp_String;

static sp_String *sp_str_alloc_raw(mrb_int len) {
  if (sp_gc_bytes > sp_gc_threshold)
    sp_gc_collect();
  size_t total = sizeof(sp_gc_hdr) + sizeof(sp_String) + (size_t)len + 1;
  sp_gc_hdr *h = (sp_gc_hdr *)sp_gc_xmalloc(total);
  memset(h, 0, sizeof *h);
  h->size = (uint32_t)(total - sizeof *h);
  h->used = 1;
  h->next = sp_str_heap;
  sp_str_heap = h;
  sp_gc_bytes += total;
  sp_String *s = (sp_String *)(h + 1);
  s->len = len;
  s->ptr[len] = 0;
  return s;
}

static sp_String *sp_str_alloc(const char *cstr) {
  mrb_int len = (mrb_int)strlen(cstr);
  sp_String *s = sp_str_alloc_raw(len);
  memcpy(s->ptr, cstr, (size_t)len + 1);
  return s;
}

static sp_String *sp_str_concat(sp_String *a, sp_String *b) {
  SP_GC_SAVE();
  SP_GC_ROOT(a);
  SP_GC_ROOT(b);
  sp_String *s = sp_str_alloc_raw(a->len + b->len);
  memcpy(s->ptr, a->ptr, (size_t)a->len);
  memcpy(s->ptr + a->len, b->ptr, (size_t)b->len + 1);
  return s;
}

static sp_String *sp_int_to_s(mrb_int v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", (long long)v);
  return sp_str_alloc(buf);
}

static inline mrb_bool sp_str_eq(sp_String *a, sp_String *b) {
  return a->len == b->len && memcmp(a->ptr, b->ptr, (size_t)a->len) == 0;
}

/* ---- Polymorphic values and arrays of them ------------------------------ */

/* A value whose class is known only at run time: calls on it become
 * `if (v.cls_id == N) ... else if ...` chains. cls_id 0 is nil. */
typedef struct {
  int cls_id;
  void *p;
} sp_Poly;

typedef struct {
  mrb_int len, cap;
  sp_Poly *items;
} sp_PolyArray;

static void sp_PolyArray_finalize(void *p) { free(((sp_PolyArray *)p)->items); }

static void sp_PolyArray_gc_scan(void *p) {
  sp_PolyArray *a = (sp_PolyArray *)p;
  for (mrb_int i = 0; i < a->len; i++)
    sp_gc_mark(a->items[i].p);
}

static sp_PolyArray *sp_PolyArray_new(void) {
  return (sp_PolyArray *)sp_gc_alloc(sizeof(sp_PolyArray),
                                     sp_PolyArray_finalize,
                                     sp_PolyArray_gc_scan);
}

static void sp_PolyArray_push(sp_PolyArray *a, sp_Poly v) {
  if (a->len == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 8;
    a->items = (sp_Poly *)realloc(a->items, sizeof(sp_Poly) * (size_t)a->cap);
  }
  a->items[a->len++] = v;
}

static inline sp_Poly sp_PolyArray_get(sp_PolyArray *a, mrb_int i) {
  sp_Poly nil = {0, NULL};
  if (i < 0)
    i += a->len;
  return (i >= 0 && i < a->len) ? a->items[i] : nil;
}

/* ---- Exceptions: raise/rescue ------------------------------------------- */

typedef struct {
  const char *cls;
  sp_String *message;
} sp_Exception;

/* A rescuer does, inline:
 *   sp_exc_roots[sp_exc_top] = sp_gc_nroots;
 *   if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) { body; sp_exc_top--; }
 *   else { rescue, reading sp_exc_current }
 * and the raise pops the handler it jumps to. */
static jmp_buf sp_exc_stack[64];
static int sp_exc_roots[64];
static int sp_exc_top;
static sp_Exception *sp_exc_current;

static void sp_raise(sp_Exception *e) {
  sp_exc_current = e;
  sp_gc_exc_root = e->message;
  if (sp_exc_top == 0) {
    fflush(stdout);
    fprintf(stderr, "%s (%s)\n", e->message ? e->message->ptr : "", e->cls);
    exit(1);
  }
  sp_exc_top--;
  sp_gc_nroots = sp_exc_roots[sp_exc_top];
  longjmp(sp_exc_stack[sp_exc_top], 1);
}

static sp_Exception sp_exc_storage;

static void sp_raise_cls(const char *cls, const char *msg) {
  /* One preallocated exception object: the message string is the only GC
   * allocation, and it stays reachable through sp_exc_current. */
  sp_exc_storage.cls = cls;
  sp_exc_storage.message = sp_str_alloc(msg);
  sp_raise(&sp_exc_storage);
}

static inline mrb_bool sp_exc_is_a(const char *cls) {
  return sp_exc_current && strcmp(sp_exc_current->cls, cls) == 0;
}

/* ---- catch/throw ----------------------------------------------------------- */

static jmp_buf sp_catch_stack[64];
static const char *sp_catch_tags[64];
static int sp_catch_exc_top[64];
static int sp_catch_roots[64];
static int sp_catch_top;
static mrb_int sp_catch_value;

/* catch(:tag) { ... } is, inline:
 *   sp_catch_tags[sp_catch_top] = "tag"; sp_catch_exc_top[...] = sp_exc_top;
 *   sp_catch_roots[...] = sp_gc_nroots;
 *   if (setjmp(sp_catch_stack[sp_catch_top++]) == 0) { body; sp_catch_top--; }
 *   else { result = sp_catch_value; } */
static void sp_throw(const char *tag, mrb_int value) {
  for (int i = sp_catch_top - 1; i >= 0; i--) {
    if (strcmp(sp_catch_tags[i], tag) == 0) {
      sp_catch_value = value;
      sp_catch_top = i;
      sp_exc_top = sp_catch_exc_top[i];
      sp_gc_nroots = sp_catch_roots[i];
      longjmp(sp_catch_stack[i], 1);
    }
  }
  sp_raise_cls("UncaughtThrowError", tag);
}

/* ---- Output ----------------------------------------------------------------- */

static inline void sp_puts(const char *s) {
  fputs(s, stdout);
  fputc('\n', stdout);
}

static inline void sp_puts_str(sp_String *s) { sp_puts(s->ptr); }

static inline void sp_puts_int(mrb_int v) {
  printf("%lld\n", (long long)v);
}

static inline void sp_puts_float(mrb_float v) { printf("%.6f\n", v); }

#endif /* SP_RUNTIME_H */
