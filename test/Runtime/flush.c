// SPINEL_PROFILE_FLUSH_SEC=1 writes the profile so far every second, while
// the program runs, each time atomically (a temporary file renamed into
// place): the program itself finds a complete profile of its first phase
// after 1.2 s, with no temporary file left, and the final profile at exit
// has both phases.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/p.folded SPINEL_PROFILE_FLUSH_SEC=1 SPINEL_PROFILE_QUIET=1 %t/app %t/p.folded | FileCheck %s
// RUN: FileCheck %s --check-prefix=FINAL < %t/p.folded
// RUN: %python %inputs/check_sprof.py %t/p.folded > /dev/null
// Without the flag nothing is written before exit.
// RUN: env SPINEL_PROFILE=%t/q.folded SPINEL_PROFILE_QUIET=1 %t/app %t/q.folded quick | FileCheck %s --check-prefix=NOFLUSH
//
// CHECK: flushed: first_phase yes, second_phase no, complete yes
// FINAL-DAG: <main>;first_phase
// FINAL-DAG: <main>;second_phase
// NOFLUSH: flushed: none
#include "manual_frames.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_first, "first_phase", "first_phase", SPINELPROF_KIND_USER);
FRAME(f_second, "second_phase", "second_phase", SPINELPROF_KIND_USER);

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  uint32_t e = frame_push(&f_first);
  burn_cpu_ms(100);
  frame_pop(e);
  if (argc > 2) {
    FILE *f = fopen(argv[1], "r");
    printf("flushed: %s\n", f ? "yes" : "none");
    return 0;
  }
  usleep(1200 * 1000);
  static char text[1 << 16];
  FILE *f = fopen(argv[1], "r");
  size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
  text[n] = 0;
  // A complete file: every line "stack count".
  int complete = n > 0 && text[n - 1] == '\n';
  char dir[4096];
  strcpy(dir, argv[1]);
  *strrchr(dir, '/') = 0;
  DIR *dp = opendir(dir);
  struct dirent *ent;
  while (dp && (ent = readdir(dp)))
    if (strstr(ent->d_name, ".tmp"))
      complete = 0;
  printf("flushed: first_phase %s, second_phase %s, complete %s\n",
         strstr(text, "first_phase") ? "yes" : "no",
         strstr(text, "second_phase") ? "yes" : "no", complete ? "yes" : "no");
  fflush(stdout);
  e = frame_push(&f_second);
  burn_cpu_ms(50);
  frame_pop(e);
  frame_pop(d);
  return 0;
}
