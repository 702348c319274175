/*===- timeline_app.c - A log analyser's phases, for the timeline tests ---===*
 *
 * Spinel-shaped (frames pushed by hand, as manual_frames.h): <main> runs
 * write_log to completion, then analyse, each burning CPU. The first
 * argument picks the shape:
 *   phases MS          write_log then analyse, MS ms of CPU each
 *   threads MS         two threads, each write_log then analyse
 *   wall MS            write_log, then a 300 ms nanosleep in wait_io (its
 *                      wrapper records it at once), then analyse
 *   fork MS DONE       write_log, then a fork child runs analyse alone;
 *                      "child PID" is written to DONE once it has exited
 *   flush MS SPROF COPY  write_log, then waits for the flushed SPROF and
 *                      copies it to COPY, then analyse
 *   alloc N M KIB      allocations: N of 64 bytes in write_log, then M of
 *                      64 bytes in analyse (marked as the plugin marks them);
 *                      says whether the resident set grew by less than KIB
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "manual_frames.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

FRAME(f_main, "<main>", "main", SPINELPROF_KIND_USER);
FRAME(f_write, "write_log", "write_log", SPINELPROF_KIND_USER);
FRAME(f_analyse, "analyse", "analyse", SPINELPROF_KIND_USER);
FRAME(f_wait, "wait_io", "wait_io", SPINELPROF_KIND_USER);
FRAME(f_thread, "worker", "worker", SPINELPROF_KIND_USER);
FRAME(f_entry, "alloc Entry", "Entry", SPINELPROF_KIND_USER);

static unsigned ms;

/* One allocation of size bytes, counted down as instrumented code does;
 * the memory is a static buffer, so that the resident set measures the
 * profiler alone (a sanitizer's malloc keeps freed memory in quarantine). */
static NOINLINE void *allocate(size_t size) {
  static char buffer[256];
  __spinelprof_alloc_countdown -= (int64_t)size;
  if (__spinelprof_alloc_countdown < 0)
    __spinelprof_alloc_sample(size, &f_entry);
  return size <= sizeof(buffer) ? buffer : NULL;
}

static NOINLINE void allocations(long n) {
  volatile char *last;
  for (long i = 0; i < n; ++i)
    last = allocate(64);
  (void)last;
}

static NOINLINE void write_log(long allocs) {
  uint32_t d = frame_push(&f_write);
  if (allocs)
    allocations(allocs);
  else
    burn_cpu_ms(ms);
  frame_pop(d);
}

static NOINLINE void analyse(long allocs) {
  uint32_t d = frame_push(&f_analyse);
  if (allocs)
    allocations(allocs);
  else
    burn_cpu_ms(ms);
  frame_pop(d);
}

static NOINLINE void wait_io(void) {
  uint32_t d = frame_push(&f_wait);
  struct timespec t = {0, 300000000};
  nanosleep(&t, NULL);
  frame_pop(d);
}

static void *worker(void *arg) {
  (void)arg;
  uint32_t d = frame_push(&f_thread);
  write_log(0);
  analyse(0);
  frame_pop(d);
  return NULL;
}

/* The resident set, in KiB. */
static long resident_kib(void) {
  long size = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &resident) != 2)
      resident = 0;
    fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Copies the file at from to to; 0 when it does not exist yet. */
static int copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY);
  if (in < 0)
    return 0;
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  char buf[65536];
  ssize_t n;
  while ((n = read(in, buf, sizeof(buf))) > 0)
    if (write(out, buf, (size_t)n) != n)
      return 0;
  close(in);
  close(out);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "alloc") == 0 && argc < 5))
    return 2;
  const char *shape = argv[1];
  ms = (unsigned)atoi(argv[2]);
  uint32_t d = frame_push(&f_main);
  if (strcmp(shape, "alloc") == 0) {
    long before = resident_kib();
    write_log(atol(argv[2]));
    analyse(atol(argv[3]));
    long grew = resident_kib() - before;
    if (grew < atol(argv[4]))
      printf("rss ok\n");
    else
      printf("rss grew %ld KiB\n", grew);
  } else if (strcmp(shape, "threads") == 0) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
  } else if (strcmp(shape, "wall") == 0) {
    write_log(0);
    wait_io();
    analyse(0);
  } else if (strcmp(shape, "fork") == 0) {
    write_log(0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      analyse(0);
      frame_pop(d);
      return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    /* The child wrote its profile at its exit. */
    FILE *done = fopen(argv[3], "w");
    fprintf(done, "child %d\n", (int)pid);
    fclose(done);
  } else if (strcmp(shape, "flush") == 0) {
    write_log(0);
    for (int i = 0; i < 500 && !copy_file(argv[3], argv[4]); ++i)
      usleep(10000);
    analyse(0);
  } else {
    write_log(0);
    analyse(0);
  }
  frame_pop(d);
  printf("done %s\n", shape);
  return 0;
}
