/* ray.rb: a small ray tracer (Vec3 value objects, spheres and a plane
 * behind a polymorphic `hit`, Lambert shading), rendering an N x N image
 * and printing a checksum. Spinel-shaped C: every Vec3 operation is a tiny
 * `static inline` method allocating through the GC; scene data lives in
 * float arrays read through the runtime header's tiny helpers. */
#include "sp_bench_rt.h"

enum { SP_CLS_Sphere = 1, SP_CLS_Plane };

typedef struct sp_Vec3 {
  mrb_float iv_x, iv_y, iv_z;
} sp_Vec3;

static inline sp_Vec3 *sp_Vec3_new(mrb_float lv_x, mrb_float lv_y, mrb_float lv_z) {
  sp_Vec3 *self = (sp_Vec3 *)sp_gc_alloc(sizeof(sp_Vec3), NULL, NULL);
  self->iv_x = lv_x;
  self->iv_y = lv_y;
  self->iv_z = lv_z;
  return self;
}
static inline mrb_float sp_Vec3_x(sp_Vec3 *self) { return self->iv_x; }
static inline mrb_float sp_Vec3_y(sp_Vec3 *self) { return self->iv_y; }
static inline mrb_float sp_Vec3_z(sp_Vec3 *self) { return self->iv_z; }
static inline sp_Vec3 *sp_Vec3__plus(sp_Vec3 *self, sp_Vec3 *lv_o) {
  return sp_Vec3_new(self->iv_x + sp_Vec3_x(lv_o), self->iv_y + sp_Vec3_y(lv_o),
                     self->iv_z + sp_Vec3_z(lv_o));
}
static inline sp_Vec3 *sp_Vec3__minus(sp_Vec3 *self, sp_Vec3 *lv_o) {
  return sp_Vec3_new(self->iv_x - sp_Vec3_x(lv_o), self->iv_y - sp_Vec3_y(lv_o),
                     self->iv_z - sp_Vec3_z(lv_o));
}
static inline sp_Vec3 *sp_Vec3__mul(sp_Vec3 *self, mrb_float lv_k) {
  return sp_Vec3_new(self->iv_x * lv_k, self->iv_y * lv_k, self->iv_z * lv_k);
}
static inline mrb_float sp_Vec3_dot(sp_Vec3 *self, sp_Vec3 *lv_o) {
  return self->iv_x * sp_Vec3_x(lv_o) + self->iv_y * sp_Vec3_y(lv_o) +
         self->iv_z * sp_Vec3_z(lv_o);
}
static inline mrb_float sp_Vec3_length(sp_Vec3 *self) {
  return sp_math_sqrt(sp_Vec3_dot(self, self));
}
static sp_Vec3 *sp_Vec3_normalize(sp_Vec3 *self) {
  mrb_float lv_len = sp_Vec3_length(self);
  if (sp_f_zero_p(lv_len))
    return self;
  return sp_Vec3__mul(self, 1.0 / lv_len);
}

/* Scene: spheres as rows of 4 floats (cx, cy, cz, r) in a float array. */
typedef struct sp_Scene {
  sp_FloatArray *iv_spheres;
  mrb_float iv_plane_y;
} sp_Scene;

static void sp_Scene_gc_scan(void *p) {
  sp_gc_mark(((sp_Scene *)p)->iv_spheres);
}

static inline mrb_int sp_Scene_count(sp_Scene *self) {
  return sp_FloatArray_length(self->iv_spheres) / 4;
}

static mrb_float sp_Sphere_hit(sp_Scene *lv_s, mrb_int lv_i, sp_Vec3 *lv_o,
                               sp_Vec3 *lv_d) {
  sp_FloatArray *lv_a = lv_s->iv_spheres;
  sp_Vec3 *lv_c = sp_Vec3_new(sp_FloatArray_get(lv_a, lv_i * 4),
                              sp_FloatArray_get(lv_a, lv_i * 4 + 1),
                              sp_FloatArray_get(lv_a, lv_i * 4 + 2));
  mrb_float lv_r = sp_FloatArray_get(lv_a, lv_i * 4 + 3);
  sp_Vec3 *lv_oc = sp_Vec3__minus(lv_o, lv_c);
  mrb_float lv_b = sp_Vec3_dot(lv_oc, lv_d);
  mrb_float lv_cc = sp_Vec3_dot(lv_oc, lv_oc) - lv_r * lv_r;
  mrb_float lv_disc = lv_b * lv_b - lv_cc;
  if (lv_disc < 0)
    return -1.0;
  mrb_float lv_t = -lv_b - sp_math_sqrt(lv_disc);
  return lv_t > 1e-4 ? lv_t : -1.0;
}

static mrb_float sp_Plane_hit(sp_Scene *lv_s, sp_Vec3 *lv_o, sp_Vec3 *lv_d) {
  if (sp_f_zero_p(sp_Vec3_y(lv_d)))
    return -1.0;
  mrb_float lv_t = (lv_s->iv_plane_y - sp_Vec3_y(lv_o)) / sp_Vec3_y(lv_d);
  return lv_t > 1e-4 ? lv_t : -1.0;
}

/* Polymorphic dispatch on a class id, as Spinel emits it. */
static mrb_float sp_Scene_hit(sp_Scene *self, int lv_cls, mrb_int lv_i,
                              sp_Vec3 *lv_o, sp_Vec3 *lv_d) {
  if (lv_cls == SP_CLS_Sphere)
    return sp_Sphere_hit(self, lv_i, lv_o, lv_d);
  else if (lv_cls == SP_CLS_Plane)
    return sp_Plane_hit(self, lv_o, lv_d);
  return -1.0;
}

static mrb_float sp_Scene_trace(sp_Scene *self, sp_Vec3 *lv_o, sp_Vec3 *lv_d) {
  SP_GC_SAVE();
  SP_GC_ROOT(lv_o);
  SP_GC_ROOT(lv_d);
  mrb_float lv_best = 1e30;
  mrb_int lv_hit = -1;
  for (mrb_int lv_i = 0; lv_i < sp_Scene_count(self); lv_i++) {
    mrb_float lv_t = sp_Scene_hit(self, SP_CLS_Sphere, lv_i, lv_o, lv_d);
    if (lv_t > 0 && lv_t < lv_best) {
      lv_best = lv_t;
      lv_hit = lv_i;
    }
  }
  mrb_float lv_tp = sp_Scene_hit(self, SP_CLS_Plane, 0, lv_o, lv_d);
  if (lv_tp > 0 && lv_tp < lv_best) {
    lv_best = lv_tp;
    lv_hit = -2;
  }
  if (lv_hit == -1)
    return 0.1;
  sp_Vec3 *lv_p = sp_Vec3__plus(lv_o, sp_Vec3__mul(lv_d, lv_best));
  SP_GC_ROOT(lv_p);
  sp_Vec3 *lv_n;
  if (lv_hit == -2) {
    lv_n = sp_Vec3_new(0, 1, 0);
  } else {
    sp_FloatArray *lv_a = self->iv_spheres;
    lv_n = sp_Vec3_normalize(sp_Vec3__minus(
        lv_p, sp_Vec3_new(sp_FloatArray_get(lv_a, lv_hit * 4),
                          sp_FloatArray_get(lv_a, lv_hit * 4 + 1),
                          sp_FloatArray_get(lv_a, lv_hit * 4 + 2))));
  }
  SP_GC_ROOT(lv_n);
  sp_Vec3 *lv_light = sp_Vec3_normalize(sp_Vec3_new(1, 1, -1));
  return sp_f_max(0.0, sp_Vec3_dot(lv_n, lv_light)) * 0.9 + 0.1;
}

static mrb_float sp_render(sp_Scene *lv_scene, mrb_int lv_size) {
  mrb_float lv_sum = 0;
  sp_Vec3 *lv_eye = sp_Vec3_new(0, 1, -4);
  SP_GC_SAVE();
  SP_GC_ROOT(lv_eye);
  for (mrb_int lv_y = 0; lv_y < lv_size; lv_y++)
    for (mrb_int lv_x = 0; lv_x < lv_size; lv_x++) {
      mrb_float lv_u = sp_int_to_f(lv_x) / sp_int_to_f(lv_size) - 0.5;
      mrb_float lv_v = 0.5 - sp_int_to_f(lv_y) / sp_int_to_f(lv_size);
      sp_Vec3 *lv_d = sp_Vec3_normalize(sp_Vec3_new(lv_u, lv_v + 0.2, 1));
      lv_sum += sp_Scene_trace(lv_scene, lv_eye, lv_d);
    }
  return lv_sum;
}

int main(int argc, char **argv) {
  mrb_int lv_size = argc > 1 ? atoll(argv[1]) : 300;
  SP_GC_SAVE();
  sp_Scene *lv_scene = (sp_Scene *)sp_gc_alloc(sizeof(sp_Scene), NULL, sp_Scene_gc_scan);
  SP_GC_ROOT(lv_scene);
  lv_scene->iv_spheres = sp_FloatArray_new();
  lv_scene->iv_plane_y = -1.0;
  for (mrb_int lv_i = 0; lv_i < 6; lv_i++) {
    sp_FloatArray_push(lv_scene->iv_spheres, sp_int_to_f(sp_int_mod(lv_i * 7, 5)) - 2.0);
    sp_FloatArray_push(lv_scene->iv_spheres, sp_int_to_f(lv_i % 2));
    sp_FloatArray_push(lv_scene->iv_spheres, 2.0 + sp_int_to_f(lv_i));
    sp_FloatArray_push(lv_scene->iv_spheres, 0.5 + 0.1 * sp_int_to_f(lv_i));
  }
  printf("checksum: %.4f\n", sp_render(lv_scene, lv_size));
  return 0;
}
