//===- spinelprof_io.h - Raw, unbuffered and buffered output ----*- C++ -*-===//
//
// Output without stdio: the runtime writes its files and messages with
// open/write so that nothing it does touches the program's FILE buffers, and
// so that the one primitive usable from a signal handler (writeAll) is shared.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_IO_H
#define SPINELPROF_IO_H

#include <stddef.h>
#include <stdint.h>

namespace spinelprof {

/// Writes all of Data to FD, retrying on EINTR and short writes. Returns 0 or
/// the errno of the failure. Async-signal-safe; re-entrant.
int writeAll(int FD, const void *Data, size_t Size);

/// Prints one line "spinelprof: <message>\n" on stderr in a single write so
/// that it is not interleaved with other threads' output. Not for signal
/// handlers (uses vsnprintf); any thread.
void printMessage(const char *Format, ...)
    __attribute__((format(printf, 1, 2)));

/// A file written through a fixed buffer. The first error is kept and every
/// later write is skipped, so callers check once at the end. Single thread;
/// not for signal handlers.
class BufferedFile {
public:
  /// Writes to FD, which it owns from now on (close() closes it): a file
  /// opened by output::openForWriting, or its -errno, which error() then
  /// says. A device or FIFO that does not take the data is waited for
  /// until DeadlineNs (CLOCK_MONOTONIC), then the error is ETIMEDOUT.
  BufferedFile(int FD, uint64_t DeadlineNs);
  ~BufferedFile();
  BufferedFile(const BufferedFile &) = delete;
  BufferedFile &operator=(const BufferedFile &) = delete;

  void write(const void *Data, size_t Size);
  void write(const char *Text);
  void writeChar(char C) { write(&C, 1); }
  /// printf into the buffer; output longer than 512 bytes is an error.
  void format(const char *Format, ...) __attribute__((format(printf, 2, 3)));
  void writeUnsigned(uint64_t Value);
  /// Writes Text as a JSON string literal (quotes included): control
  /// characters, quote and backslash escaped, invalid UTF-8 bytes as U+FFFD.
  void writeJsonString(const char *Text);
  /// Flushes and closes; returns 0 or the errno of the first failure.
  int close();
  int error() const { return Error; }
  uint64_t bytesWritten() const { return Bytes; }

private:
  void flush();

  int FD = -1;
  uint64_t DeadlineNs;
  int Error = 0;
  size_t Used = 0;
  uint64_t Bytes = 0;
  static constexpr size_t Capacity = 1 << 16;
  char *Buffer = nullptr; // From scratchAlloc: exit may run on a small
                          // thread stack, and a write must not use malloc.
};

} // namespace spinelprof

#endif // SPINELPROF_IO_H
