// A fork child gets its own profile: a fresh table and re-armed sampling,
// written at its exit to the path with its pid inserted (f.<pid>.folded,
// no %p in the path), holding only its own work. The parent's profile,
// written earlier, is unaffected: only the parent's work, the parent's pid.
//
// UNSUPPORTED: tsan
// (Under TSan a signal waits for TSan's next interceptor or runtime call,
// so samples land there, not where the program was; this test asserts
// where they land.)
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O1 -I%include -I%inputs %s %rtlib -o %t/app
// RUN: env SPINEL_PROFILE=%t/f.folded %t/app %t/child-done > %t/out 2> %t/err
// Wait for the child, which outlives the parent (up to 10 s).
// RUN: %python %inputs/wait_for_file.py %t/child-done 10 > %t/child
// RUN: FileCheck %s --check-prefix=CHILD < %t/child
// RUN: FileCheck %s --check-prefix=ERR < %t/err
// RUN: FileCheck %s --check-prefix=FOLDED --implicit-check-not=child < %t/f.folded
// RUN: %python %inputs/check_sprof.py %t/f.folded > %t/facts
// RUN: cat %t/out %t/facts | FileCheck %s --check-prefix=OUT
// The child's profile: only its work, its own pid.
// RUN: %python %inputs/child_profile.py --show %t/child '%t/f.{pid}.folded' %inputs/check_sprof.py > %t/child-facts
// RUN: FileCheck %s --check-prefix=CHILDPID < %t/child-facts
// RUN: FileCheck %s --check-prefix=CFOLDED --implicit-check-not=parent_work < %t/child-facts
//
// CHILD: child {{[0-9]+}} exited
// OUT: parent pid [[PID:[0-9]+]]
// ERR: spinelprof: {{[0-9]+}} samples
// FOLDED: <main>;parent_work
// OUT: pid: [[PID]]
// CFOLDED: <main>;child_work
// CHILDPID: pid: [[P:[0-9]+]]
// CHILDPID: pid: [[P]]
#include "manual_frames.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_parent, "parent_work", "parent_work", SPINELPROF_KIND_USER);
FRAME(f_child, "child_work", "child_work", SPINELPROF_KIND_USER);

static const char *done_path;

// Destructors run after every atexit hook, the profiler's included.
__attribute__((destructor)) static void mark_child_done(void) {
  if (!done_path)
    return;
  int fd = open(done_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    char line[64];
    int n = snprintf(line, sizeof(line), "child %d exited\n", (int)getpid());
    (void)!write(fd, line, n);
    close(fd);
  }
}

int main(int argc, char **argv) {
  uint32_t d = frame_push(&f_main);
  int p[2];
  if (argc < 2 || pipe(p) != 0)
    return 2;
  printf("parent pid %d\n", (int)getpid());
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    // Wait for the parent to exit (the pipe's write end closes), then work
    // and exit through exit() and its atexit hooks.
    char c;
    close(p[1]);
    while (read(p[0], &c, 1) > 0) {
    }
    uint32_t e = frame_push(&f_child);
    burn_cpu_ms(80);
    frame_pop(e);
    done_path = argv[1];
    exit(0);
  }
  close(p[0]);
  uint32_t e = frame_push(&f_parent);
  burn_cpu_ms(80);
  frame_pop(e);
  frame_pop(d);
  return 0;
}
