/* shapes.c - written by hand after shapes.rb, in the shape of the C that
 * Spinel (the Ruby AOT compiler) generates: one translation unit including
 * the runtime header, `static` methods named sp_<Class>_<method>, top-level
 * code inline in main, locals lv_*, instance variables self->iv_*,
 * temporaries _tN, raise/rescue and catch/throw over setjmp/longjmp.
 * It is the example spinelprof profiles (`ninja demo`); not Spinel's output.
 */
#include "sp_runtime.h"

/* Class ids for polymorphic dispatch. */
enum { SP_CLS_Geo_Vec = 1, SP_CLS_Circle, SP_CLS_Rect, SP_CLS_Triangle };

typedef struct sp_Geo_Vec {
  mrb_int iv_x;
  mrb_int iv_y;
} sp_Geo_Vec;

typedef struct sp_Circle {
  sp_Geo_Vec *iv_center;
  mrb_int iv_r;
} sp_Circle;

typedef struct sp_Rect {
  sp_Geo_Vec *iv_corner;
  mrb_int iv_w;
  mrb_int iv_h;
} sp_Rect;

typedef struct sp_Triangle {
  sp_Geo_Vec *iv_a;
  sp_Geo_Vec *iv_b;
  sp_Geo_Vec *iv_c;
} sp_Triangle;

static mrb_int gv_rescues;

/* ---- Geo::Vec ---- */

static inline void sp_Geo_Vec_initialize(sp_Geo_Vec *self, mrb_int lv_x,
                                         mrb_int lv_y) {
  self->iv_x = lv_x;
  self->iv_y = lv_y;
}

static inline sp_Geo_Vec *sp_Geo_Vec_new(mrb_int lv_x, mrb_int lv_y) {
  sp_Geo_Vec *self = (sp_Geo_Vec *)sp_gc_alloc(sizeof(sp_Geo_Vec), NULL, NULL);
  sp_Geo_Vec_initialize(self, lv_x, lv_y);
  return self;
}

static inline sp_Geo_Vec *sp_Geo_Vec__plus(sp_Geo_Vec *self, sp_Geo_Vec *lv_o) {
  return sp_Geo_Vec_new(self->iv_x + lv_o->iv_x, self->iv_y + lv_o->iv_y);
}

static inline sp_Geo_Vec *sp_Geo_Vec__minus(sp_Geo_Vec *self, sp_Geo_Vec *lv_o) {
  return sp_Geo_Vec_new(self->iv_x - lv_o->iv_x, self->iv_y - lv_o->iv_y);
}

static inline sp_Geo_Vec *sp_Geo_Vec__mul(sp_Geo_Vec *self, mrb_int lv_k) {
  return sp_Geo_Vec_new(self->iv_x * lv_k, self->iv_y * lv_k);
}

static inline mrb_int sp_Geo_Vec_cross(sp_Geo_Vec *self, sp_Geo_Vec *lv_o) {
  return self->iv_x * lv_o->iv_y - self->iv_y * lv_o->iv_x;
}

static inline mrb_bool sp_Geo_Vec_zero_p(sp_Geo_Vec *self) {
  return self->iv_x == 0 && self->iv_y == 0;
}

static inline sp_Geo_Vec *sp_Geo_Vec_cls_origin(void) {
  return sp_Geo_Vec_new(0, 0);
}

/* ---- Circle ---- */

static void sp_Circle_gc_scan(void *p) {
  sp_Circle *self = (sp_Circle *)p;
  sp_gc_mark(self->iv_center);
}

static inline void sp_Circle_initialize(sp_Circle *self, sp_Geo_Vec *lv_center,
                                        mrb_int lv_r) {
  self->iv_center = lv_center;
  self->iv_r = lv_r;
}

static inline sp_Circle *sp_Circle_new(sp_Geo_Vec *lv_center, mrb_int lv_r) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_center);
  sp_Circle *self =
      (sp_Circle *)sp_gc_alloc(sizeof(sp_Circle), NULL, sp_Circle_gc_scan);
  sp_Circle_initialize(self, lv_center, lv_r);
  return self;
}

static inline mrb_int sp_Circle_area(sp_Circle *self) {
  return 3 * self->iv_r * self->iv_r;
}

static inline mrb_int sp_Circle_grow_bang(sp_Circle *self) {
  self->iv_r += 1;
  return self->iv_r;
}

/* ---- Rect ---- */

static void sp_Rect_gc_scan(void *p) {
  sp_Rect *self = (sp_Rect *)p;
  sp_gc_mark(self->iv_corner);
}

static inline void sp_Rect_initialize(sp_Rect *self, sp_Geo_Vec *lv_corner,
                                      mrb_int lv_w, mrb_int lv_h) {
  self->iv_corner = lv_corner;
  self->iv_w = lv_w;
  self->iv_h = lv_h;
}

static inline sp_Rect *sp_Rect_new(sp_Geo_Vec *lv_corner, mrb_int lv_w,
                                   mrb_int lv_h) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_corner);
  sp_Rect *self = (sp_Rect *)sp_gc_alloc(sizeof(sp_Rect), NULL, sp_Rect_gc_scan);
  sp_Rect_initialize(self, lv_corner, lv_w, lv_h);
  return self;
}

static inline mrb_int sp_Rect_area(sp_Rect *self) {
  return self->iv_w * self->iv_h;
}

static inline mrb_int sp_Rect_grow_bang(sp_Rect *self) {
  self->iv_w += 1;
  self->iv_h += 1;
  return self->iv_h;
}

/* ---- Triangle ---- */

static void sp_Triangle_gc_scan(void *p) {
  sp_Triangle *self = (sp_Triangle *)p;
  sp_gc_mark(self->iv_a);
  sp_gc_mark(self->iv_b);
  sp_gc_mark(self->iv_c);
}

static inline void sp_Triangle_initialize(sp_Triangle *self, sp_Geo_Vec *lv_a,
                                          sp_Geo_Vec *lv_b, sp_Geo_Vec *lv_c) {
  self->iv_a = lv_a;
  self->iv_b = lv_b;
  self->iv_c = lv_c;
}

static sp_Triangle *sp_Triangle_new(sp_Geo_Vec *lv_a, sp_Geo_Vec *lv_b,
                                    sp_Geo_Vec *lv_c) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_a);
  SP_GC_ROOT(lv_b);
  SP_GC_ROOT(lv_c);
  sp_Triangle *self = (sp_Triangle *)sp_gc_alloc(sizeof(sp_Triangle), NULL,
                                                 sp_Triangle_gc_scan);
  sp_Triangle_initialize(self, lv_a, lv_b, lv_c);
  return self;
}

static mrb_int sp_Triangle_area(sp_Triangle *self) {
  SP_GC_SAVE();
  SP_GC_ROOT(self);
  sp_Geo_Vec *_t1 = sp_Geo_Vec__minus(self->iv_b, self->iv_a);
  SP_GC_ROOT(_t1);
  sp_Geo_Vec *_t2 = sp_Geo_Vec__minus(self->iv_c, self->iv_a);
  mrb_int _t3 = sp_Geo_Vec_cross(_t1, _t2);
  return (_t3 < 0 ? -_t3 : _t3) / 2;
}

static inline sp_Geo_Vec *sp_Triangle_grow_bang(sp_Triangle *self) {
  SP_GC_SAVE();
  SP_GC_ROOT(self);
  sp_Geo_Vec *_t1 = sp_Geo_Vec_new(1, 3);
  self->iv_c = sp_Geo_Vec__plus(self->iv_c, _t1);
  return self->iv_c;
}

/* ---- Object (top-level methods) ---- */

static mrb_int sp_fib(mrb_int lv_n) {
  return lv_n < 2 ? lv_n : sp_fib(lv_n - 1) + sp_fib(lv_n - 2);
}

static sp_Poly sp_make_shape(mrb_int lv_i) {
  SP_GC_SAVE();
  sp_Geo_Vec *_t1 = sp_Geo_Vec_new(lv_i % 17, lv_i % 11);
  SP_GC_ROOT(_t1);
  sp_Geo_Vec *_t2 = sp_Geo_Vec__mul(_t1, 2);
  SP_GC_ROOT(_t2);
  sp_Geo_Vec *_t3 = sp_Geo_Vec_cls_origin();
  sp_Geo_Vec *lv_c = sp_Geo_Vec__plus(_t2, _t3);
  SP_GC_ROOT(lv_c);
  sp_Poly _t4;
  switch (lv_i % 3) {
  case 0:
    _t4.cls_id = SP_CLS_Circle;
    _t4.p = sp_Circle_new(lv_c, lv_i % 7);
    break;
  case 1:
    _t4.cls_id = SP_CLS_Rect;
    _t4.p = sp_Rect_new(lv_c, lv_i % 5, lv_i % 9);
    break;
  default: {
    sp_Geo_Vec *_t5 = sp_Geo_Vec_new(lv_i % 13, 1);
    SP_GC_ROOT(_t5);
    sp_Geo_Vec *_t6 = sp_Geo_Vec_new(2, lv_i % 6);
    _t4.cls_id = SP_CLS_Triangle;
    _t4.p = sp_Triangle_new(lv_c, _t5, _t6);
    break;
  }
  }
  return _t4;
}

static sp_PolyArray *sp_build(mrb_int lv_n) {
  SP_GC_SAVE();
  sp_PolyArray *lv_shapes = sp_PolyArray_new();
  SP_GC_ROOT(lv_shapes);
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Poly _t1 = sp_make_shape(lv_i);
    sp_PolyArray_push(lv_shapes, _t1);
  }
  return lv_shapes;
}

static mrb_int sp_verify_area(mrb_int lv_a) {
  if (lv_a == 0)
    sp_raise_cls("BadShape", "empty shape");
  return lv_a;
}

static mrb_int sp_validate(sp_Poly lv_shape) {
  mrb_int _t1;
  if (lv_shape.cls_id == SP_CLS_Circle)
    _t1 = sp_Circle_area((sp_Circle *)lv_shape.p);
  else if (lv_shape.cls_id == SP_CLS_Rect)
    _t1 = sp_Rect_area((sp_Rect *)lv_shape.p);
  else
    _t1 = sp_Triangle_area((sp_Triangle *)lv_shape.p);
  return sp_verify_area(_t1);
}

static inline mrb_int sp_check(sp_Poly lv_shape) { return sp_validate(lv_shape); }

static mrb_int sp_total_area(sp_PolyArray *lv_shapes) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_shapes);
  volatile mrb_int lv_sum = 0;
  for (mrb_int _t1 = 0; _t1 < lv_shapes->len; _t1++) {
    sp_Poly lv_s = lv_shapes->items[_t1];
    volatile mrb_int lv_attempts = 0;
    for (;;) { /* retry */
      sp_exc_roots[sp_exc_top] = sp_gc_nroots;
      if (setjmp(sp_exc_stack[sp_exc_top++]) == 0) {
        lv_sum += sp_check(lv_s);
        sp_exc_top--;
      } else if (sp_exc_is_a("BadShape")) {
        gv_rescues += 1;
        lv_attempts += 1;
        if (lv_s.cls_id == SP_CLS_Circle)
          sp_Circle_grow_bang((sp_Circle *)lv_s.p);
        else if (lv_s.cls_id == SP_CLS_Rect)
          sp_Rect_grow_bang((sp_Rect *)lv_s.p);
        else
          sp_Triangle_grow_bang((sp_Triangle *)lv_s.p);
        if (lv_attempts < 3)
          continue;
      } else {
        sp_raise(sp_exc_current);
      }
      break;
    }
  }
  return lv_sum;
}

static void sp_probe(sp_Poly lv_shape, mrb_int lv_limit, mrb_int lv_i) {
  mrb_int _t1;
  if (lv_shape.cls_id == SP_CLS_Circle)
    _t1 = sp_Circle_area((sp_Circle *)lv_shape.p);
  else if (lv_shape.cls_id == SP_CLS_Rect)
    _t1 = sp_Rect_area((sp_Rect *)lv_shape.p);
  else
    _t1 = sp_Triangle_area((sp_Triangle *)lv_shape.p);
  if (_t1 > lv_limit)
    sp_throw("found", lv_i);
}

static void sp_scan(sp_PolyArray *lv_shapes, mrb_int lv_limit) {
  for (mrb_int lv_i = 0; lv_i < lv_shapes->len; lv_i++)
    sp_probe(lv_shapes->items[lv_i], lv_limit, lv_i);
}

static mrb_int sp_find_big(sp_PolyArray *lv_shapes, mrb_int lv_limit) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_shapes);
  mrb_int _t1;
  sp_catch_tags[sp_catch_top] = "found";
  sp_catch_exc_top[sp_catch_top] = sp_exc_top;
  sp_catch_roots[sp_catch_top] = sp_gc_nroots;
  if (setjmp(sp_catch_stack[sp_catch_top++]) == 0) {
    sp_scan(lv_shapes, lv_limit);
    sp_catch_top--;
    _t1 = -1;
  } else {
    _t1 = sp_catch_value;
  }
  return _t1;
}

static mrb_int sp_walk(mrb_int lv_n) {
  SP_GC_SAVE();
  sp_Geo_Vec *lv_v = sp_Geo_Vec_cls_origin();
  SP_GC_ROOT(lv_v);
  mrb_int lv_hits = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Geo_Vec *_t1 = sp_Geo_Vec_new(lv_i % 3 - 1, lv_i % 5 - 2);
    sp_Geo_Vec *_t2 = sp_Geo_Vec__mul(_t1, 2);
    lv_v = sp_Geo_Vec__plus(lv_v, _t2);
    if (sp_Geo_Vec_zero_p(lv_v))
      lv_hits += 1;
  }
  return lv_v->iv_x * 31 + lv_v->iv_y + lv_hits;
}

static sp_String *sp_label(mrb_int lv_r, mrb_int lv_found) {
  SP_GC_SAVE();
  sp_String *_t1 = sp_str_alloc("r");
  SP_GC_ROOT(_t1);
  sp_String *_t2 = sp_int_to_s(lv_r);
  SP_GC_ROOT(_t2);
  sp_String *_t3 = sp_str_concat(_t1, _t2);
  SP_GC_ROOT(_t3);
  sp_String *_t4 = sp_str_alloc(":");
  SP_GC_ROOT(_t4);
  sp_String *_t5 = sp_int_to_s(lv_found);
  SP_GC_ROOT(_t5);
  sp_String *_t6 = sp_str_concat(_t4, _t5);
  return sp_str_concat(_t3, _t6);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  SP_GC_SAVE();
  mrb_int lv_rounds = 1500;
  mrb_int lv_total = 0;
  mrb_int lv_found = 0;
  mrb_int lv_walked = 0;
  mrb_int lv_labels = 0;
  sp_PolyArray *lv_shapes = NULL;
  SP_GC_ROOT(lv_shapes);
  for (mrb_int lv_r = 0; lv_r < lv_rounds; lv_r++) {
    lv_shapes = sp_build(2000 + lv_r % 40);
    lv_total += sp_total_area(lv_shapes);
    lv_found += sp_find_big(lv_shapes, 100 + lv_r * 10);
    lv_walked += sp_walk(4000 + lv_r);
    lv_labels += sp_label(lv_r, lv_found)->len;
  }
  printf("areas: %lld\n", (long long)lv_total);
  printf("rescues: %lld\n", (long long)gv_rescues);
  printf("found: %lld\n", (long long)lv_found);
  printf("walk: %lld\n", (long long)lv_walked);
  printf("labels: %lld\n", (long long)lv_labels);
  printf("fib(37): %lld\n", (long long)sp_fib(37));
  return 0;
}
