/* Stands in for Spinel's sp_runtime.h: functions defined in a header are
 * runtime helpers to the plugin, whatever their names. */
static unsigned sp_helper_line = __LINE__ + 2;
static const struct spinelprof_frame_descriptor *sp_helper_top;
__attribute__((noinline)) static int sp_str_helper(int x) {
  sp_helper_top = top_frame();
  return x + 1;
}
