/*===- short_write.c - A filesystem that fills up, for LD_PRELOAD ---------===*
 *
 * write() to a regular file fails with ENOSPC once 1000 bytes have gone to
 * regular files, after a short write that crosses the limit, as a full
 * filesystem does. Standard streams (even redirected to files) and pipes are untouched.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t written;

ssize_t write(int fd, const void *buf, size_t n) {
  static ssize_t (*real)(int, const void *, size_t);
  if (!real)
    real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  struct stat st;
  if (fd <= 2 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return real(fd, buf, n);
  if (written >= 1000) {
    errno = ENOSPC;
    return -1;
  }
  if (n > 1000 - written)
    n = 1000 - written;
  written += n;
  return real(fd, buf, n);
}
