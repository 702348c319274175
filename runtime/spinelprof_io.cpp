//===- spinelprof_io.cpp - Raw, unbuffered and buffered output ------------===//
//
// Part of spinelprof. See spinelprof_io.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_io.h"

#include "spinelprof_scratch.h"
#include "spinelprof/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace spinelprof {

int writeAll(int FD, const void *Data, size_t Size) {
  const char *P = static_cast<const char *>(Data);
  while (Size > 0) {
    ssize_t N = ::write(FD, P, Size);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    if (N == 0)
      return EIO; // A regular file or pipe never does this; do not spin.
    P += N;
    Size -= static_cast<size_t>(N);
  }
  return 0;
}

void printMessage(const char *Format, ...) {
  char Line[4096 + 512];
  static const char Prefix[] = "spinelprof: ";
  memcpy(Line, Prefix, sizeof(Prefix) - 1);
  size_t Len = sizeof(Prefix) - 1;
  va_list Args;
  va_start(Args, Format);
  int N = vsnprintf(Line + Len, sizeof(Line) - Len - 1, Format, Args);
  va_end(Args);
  if (N < 0)
    N = 0;
  Len += static_cast<size_t>(N) < sizeof(Line) - Len - 1
             ? static_cast<size_t>(N)
             : sizeof(Line) - Len - 2;
  Line[Len++] = '\n';
  int SavedErrno = errno;
  (void)writeAll(STDERR_FILENO, Line, Len);
  errno = SavedErrno;
}

BufferedFile::BufferedFile(int FD, uint64_t DeadlineNs)
    : FD(FD), DeadlineNs(DeadlineNs) {
  if (FD < 0) {
    Error = -FD;
    this->FD = -1;
    return;
  }
  Buffer = static_cast<char *>(scratchAlloc(Capacity));
  if (!Buffer)
    Error = ENOMEM;
}

BufferedFile::~BufferedFile() {
  (void)close();
  scratchFree(Buffer);
}

void BufferedFile::flush() {
  if (Used == 0 || Error)
    return;
  Error = output::writeAllBefore(FD, Buffer, Used, DeadlineNs);
  Used = 0;
}

void BufferedFile::write(const void *Data, size_t Size) {
  if (Error)
    return;
  Bytes += Size;
  if (Size > Capacity - Used) {
    flush();
    if (Size >= Capacity) {
      if (!Error)
        Error = output::writeAllBefore(FD, Data, Size, DeadlineNs);
      return;
    }
  }
  memcpy(Buffer + Used, Data, Size);
  Used += Size;
}

void BufferedFile::write(const char *Text) { write(Text, strlen(Text)); }

void BufferedFile::format(const char *Format, ...) {
  char Text[512];
  va_list Args;
  va_start(Args, Format);
  int N = vsnprintf(Text, sizeof(Text), Format, Args);
  va_end(Args);
  if (N < 0 || static_cast<size_t>(N) >= sizeof(Text)) {
    if (!Error)
      Error = EOVERFLOW;
    return;
  }
  write(Text, static_cast<size_t>(N));
}

void BufferedFile::writeUnsigned(uint64_t Value) {
  char Digits[24];
  size_t I = sizeof(Digits);
  do {
    Digits[--I] = static_cast<char>('0' + Value % 10);
    Value /= 10;
  } while (Value);
  write(Digits + I, sizeof(Digits) - I);
}

/// Length of the well-formed UTF-8 sequence at S (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or 0 if it is not one; then
/// Invalid is the length of the maximal ill-formed prefix, which becomes one
/// U+FFFD (Unicode's recommended practice, as Python and browsers do).
static size_t utf8SequenceLength(const unsigned char *S, size_t &Invalid) {
  Invalid = 1;
  unsigned char C = S[0];
  if (C < 0x80)
    return 1;
  size_t Len;
  unsigned char Lo = 0x80, Hi = 0xBF; // Allowed range of the second byte.
  if (C >= 0xC2 && C <= 0xDF) {
    Len = 2;
  } else if (C >= 0xE0 && C <= 0xEF) {
    Len = 3;
    if (C == 0xE0)
      Lo = 0xA0;
    else if (C == 0xED)
      Hi = 0x9F;
  } else if (C >= 0xF0 && C <= 0xF4) {
    Len = 4;
    if (C == 0xF0)
      Lo = 0x90;
    else if (C == 0xF4)
      Hi = 0x8F;
  } else {
    return 0;
  }
  if (S[1] < Lo || S[1] > Hi)
    return 0; // Also stops at the terminating NUL.
  for (size_t I = 2; I < Len; ++I) {
    if (S[I] < 0x80 || S[I] > 0xBF) {
      Invalid = I;
      return 0;
    }
  }
  return Len;
}

void BufferedFile::writeJsonString(const char *Text) {
  writeChar('"');
  const unsigned char *S = reinterpret_cast<const unsigned char *>(Text);
  while (*S) {
    unsigned char C = *S;
    if (C == '"' || C == '\\') {
      char Esc[2] = {'\\', static_cast<char>(C)};
      write(Esc, 2);
      ++S;
    } else if (C < 0x20) {
      switch (C) {
      case '\n': write("\\n", 2); break;
      case '\r': write("\\r", 2); break;
      case '\t': write("\\t", 2); break;
      case '\b': write("\\b", 2); break;
      case '\f': write("\\f", 2); break;
      default: format("\\u%04x", C); break;
      }
      ++S;
    } else {
      size_t Invalid;
      size_t Len = utf8SequenceLength(S, Invalid);
      if (Len == 0) {
        write("\xEF\xBF\xBD", 3);
        S += Invalid;
      } else {
        write(S, Len);
        S += Len;
      }
    }
  }
  writeChar('"');
}

int BufferedFile::close() {
  if (FD < 0)
    return Error;
  flush();
  if (::close(FD) != 0 && !Error && errno != EINTR)
    Error = errno;
  FD = -1;
  return Error;
}

} // namespace spinelprof
