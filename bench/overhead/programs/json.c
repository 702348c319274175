/* json.rb: a recursive-descent JSON parser (class Parser with @src, @pos)
 * summing the numbers of a generated document, N times. Spinel-shaped C:
 * every byte goes through tiny runtime helpers (getbyte, digit?, space?). */
#include "sp_bench_rt.h"

typedef struct sp_Parser {
  sp_String *iv_src;
  mrb_int iv_pos;
} sp_Parser;

static inline mrb_int sp_Parser_peek(sp_Parser *self) {
  return sp_str_getbyte(self->iv_src, self->iv_pos);
}
static inline void sp_Parser_advance(sp_Parser *self) { self->iv_pos += 1; }

static void sp_Parser_skip_ws(sp_Parser *self) {
  while (sp_byte_space_p(sp_Parser_peek(self)))
    sp_Parser_advance(self);
}

static mrb_float sp_Parser_parse_number(sp_Parser *self) {
  mrb_int lv_v = 0;
  mrb_int lv_sign = 1;
  if (sp_Parser_peek(self) == '-') {
    lv_sign = -1;
    sp_Parser_advance(self);
  }
  while (sp_byte_digit_p(sp_Parser_peek(self))) {
    lv_v = lv_v * 10 + (sp_Parser_peek(self) - '0');
    sp_Parser_advance(self);
  }
  return sp_int_to_f(lv_v * lv_sign);
}

static mrb_int sp_Parser_parse_string(sp_Parser *self) {
  mrb_int lv_len = 0;
  sp_Parser_advance(self);
  while (sp_Parser_peek(self) != '"' && sp_Parser_peek(self) >= 0) {
    sp_Parser_advance(self);
    lv_len++;
  }
  sp_Parser_advance(self);
  return lv_len;
}

static mrb_float sp_Parser_parse_value(sp_Parser *self);

static mrb_float sp_Parser_parse_array(sp_Parser *self) {
  mrb_float lv_sum = 0;
  sp_Parser_advance(self);
  sp_Parser_skip_ws(self);
  while (sp_Parser_peek(self) != ']') {
    lv_sum += sp_Parser_parse_value(self);
    sp_Parser_skip_ws(self);
    if (sp_Parser_peek(self) == ',')
      sp_Parser_advance(self);
    sp_Parser_skip_ws(self);
  }
  sp_Parser_advance(self);
  return lv_sum;
}

static mrb_float sp_Parser_parse_object(sp_Parser *self) {
  mrb_float lv_sum = 0;
  sp_Parser_advance(self);
  sp_Parser_skip_ws(self);
  while (sp_Parser_peek(self) != '}') {
    sp_Parser_parse_string(self);
    sp_Parser_skip_ws(self);
    sp_Parser_advance(self); /* ':' */
    sp_Parser_skip_ws(self);
    lv_sum += sp_Parser_parse_value(self);
    sp_Parser_skip_ws(self);
    if (sp_Parser_peek(self) == ',')
      sp_Parser_advance(self);
    sp_Parser_skip_ws(self);
  }
  sp_Parser_advance(self);
  return lv_sum;
}

static mrb_float sp_Parser_parse_value(sp_Parser *self) {
  sp_Parser_skip_ws(self);
  mrb_int lv_c = sp_Parser_peek(self);
  if (lv_c == '{')
    return sp_Parser_parse_object(self);
  if (lv_c == '[')
    return sp_Parser_parse_array(self);
  if (lv_c == '"')
    return sp_int_to_f(sp_Parser_parse_string(self));
  return sp_Parser_parse_number(self);
}

/* The document: an array of records, built once with the string helpers. */
static sp_String *sp_make_doc(mrb_int lv_records) {
  size_t lv_cap = (size_t)lv_records * 64 + 16, lv_len = 0;
  char *lv_buf = (char *)malloc(lv_cap);
  lv_len += (size_t)sprintf(lv_buf + lv_len, "[");
  for (mrb_int lv_i = 0; lv_i < lv_records; lv_i++)
    lv_len += (size_t)sprintf(lv_buf + lv_len,
                              "%s{\"id\": %lld, \"name\": \"item%lld\", \"v\": [%lld, -%lld]}",
                              lv_i ? ", " : "", (long long)lv_i, (long long)lv_i,
                              (long long)(lv_i * 3), (long long)(lv_i % 7));
  lv_len += (size_t)sprintf(lv_buf + lv_len, "]");
  sp_String *lv_s = sp_str_alloc(lv_buf);
  free(lv_buf);
  return lv_s;
}

int main(int argc, char **argv) {
  mrb_int lv_n = argc > 1 ? atoll(argv[1]) : 200;
  SP_GC_SAVE();
  sp_String *lv_doc = sp_make_doc(2000);
  SP_GC_ROOT(lv_doc);
  mrb_float lv_total = 0;
  for (mrb_int lv_i = 0; lv_i < lv_n; lv_i++) {
    sp_Parser lv_p = {lv_doc, 0};
    lv_total += sp_Parser_parse_value(&lv_p);
  }
  printf("total: %.1f\n", lv_total);
  return 0;
}
