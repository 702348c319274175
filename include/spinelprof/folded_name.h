//===- spinelprof/folded_name.h - Escaping of folded frame names -*- C++ -*-===//
//
// The one implementation of docs/formats.md, "Folded stacks": a frame name
// is escaped so that a line always splits correctly (`%` -> `%25`, `;` ->
// `%3B`, newline -> `%0A`, carriage return -> `%0D`), and readers decode
// exactly these four sequences. Shared by the runtime's folded writer and
// by spinel-prof (merge's folded writer, the folded reader).
//
// Header-only C++17 on char buffers: the runtime links it without
// libstdc++, and every function here is async-signal-safe (no malloc,
// stdio or locks; the escaping calls only the sink it is given), because
// the runtime writes from the copy of the process at SIGINT or a crash.
//
//===----------------------------------------------------------------------===//
#ifndef SPINELPROF_FOLDED_NAME_H
#define SPINELPROF_FOLDED_NAME_H

#include <stddef.h>

namespace spinelprof {
namespace folded {

/// One escaped character and the three bytes that stand for it.
struct NameEscape {
  char Raw;
  char Escaped[4];
};

/// Every escape of a folded name; nothing else is escaped or decoded.
inline constexpr NameEscape NameEscapes[] = {
    {'%', "%25"}, {';', "%3B"}, {'\n', "%0A"}, {'\r', "%0D"}};

/// The three-byte escape of C, or null when C stands for itself.
/// Async-signal-safe.
inline const char *escapeOf(char C) {
  for (const NameEscape &E : NameEscapes)
    if (E.Raw == C)
      return E.Escaped;
  return nullptr;
}

/// Appends the Size bytes at Name, escaped, through Append(const char *,
/// size_t). Async-signal-safe when Append is.
template <typename Sink>
inline void escapeName(const char *Name, size_t Size, Sink &&Append) {
  size_t Plain = 0; // Bytes before I not appended yet.
  for (size_t I = 0; I < Size; ++I) {
    const char *Escape = escapeOf(Name[I]);
    if (!Escape)
      continue;
    if (I > Plain)
      Append(Name + Plain, I - Plain);
    Append(Escape, 3);
    Plain = I + 1;
  }
  if (Size > Plain)
    Append(Name + Plain, Size - Plain);
}

/// The character the escape at P stands for, P having Left bytes; 0 when
/// P does not start one of the four escapes (the `%` is then itself).
/// Async-signal-safe.
inline char decodeEscapeAt(const char *P, size_t Left) {
  if (Left < 3 || P[0] != '%')
    return 0;
  for (const NameEscape &E : NameEscapes)
    if (P[1] == E.Escaped[1] && P[2] == E.Escaped[2])
      return E.Raw;
  return 0;
}

} // namespace folded
} // namespace spinelprof

#endif // SPINELPROF_FOLDED_NAME_H
