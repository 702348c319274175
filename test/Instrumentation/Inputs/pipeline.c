/* A Spinel-shaped program for the clang pipeline test: a small static
 * inline method that -O2 inlines, and a hot leaf with no calls. */
static inline int sp_Vec_dot(int a, int b) { return a * b; }

__attribute__((noinline)) long sp_hot_leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += (i * i) ^ (s >> 3);
  return s;
}

int main(int argc, char **argv) {
  return (int)sp_hot_leaf(argc) + sp_Vec_dot(argc, 2);
}
