//===- spinelprof_flags.cpp - Configuration from the environment ----------===//
//
// Part of spinelprof. See spinelprof_flags.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_flags.h"

#include "spinelprof_io.h"

#include <stdlib.h>
#include <string.h>

namespace spinelprof {

// One parser per flag type; each returns false for a value it rejects and
// then leaves Out at the default.

static bool parseValue(const char *Text, const char *&Out, long, long) {
  Out = Text;
  return true;
}

static bool parseValue(const char *Text, int &Out, long Min, long Max) {
  const char *P = Text;
  while (*P == ' ' || *P == '\t')
    ++P;
  if (*P == '+')
    ++P;
  if (*P < '0' || *P > '9')
    return false;
  long Value = 0;
  for (; *P >= '0' && *P <= '9'; ++P) {
    Value = Value * 10 + (*P - '0');
    if (Value > Max)
      return false;
  }
  while (*P == ' ' || *P == '\t')
    ++P;
  if (*P || Value < Min)
    return false;
  Out = static_cast<int>(Value);
  return true;
}

static bool parseValue(const char *Text, bool &Out, long, long) {
  static const char *const True[] = {"1", "true", "yes", "on"};
  static const char *const False[] = {"0", "false", "no", "off"};
  for (const char *T : True)
    if (strcasecmp(Text, T) == 0)
      return Out = true, true;
  for (const char *F : False)
    if (strcasecmp(Text, F) == 0)
      return Out = false, true;
  return false;
}

static void reportBadValue(const char *Env, const char *Text, const char *,
                           long, long) {
  // Unreachable: string flags accept anything.
  printMessage("%s='%s' is not valid", Env, Text);
}

static void reportBadValue(const char *Env, const char *Text, int Default,
                           long Min, long Max) {
  printMessage("%s='%s' is not a number from %ld to %ld; using %d", Env, Text,
               Min, Max, Default);
}

static void reportBadValue(const char *Env, const char *Text, bool Default,
                           long, long) {
  printMessage("%s='%s' is not 0 or 1; using %d", Env, Text, Default ? 1 : 0);
}

void parseFlags(Flags &Out) {
#define SPINELPROF_FLAG_PARSE(Type, Name, Env, Default, Min, Max, Help)        \
  Out.Name = Default;                                                          \
  if (const char *Text = getenv(Env); Text && *Text) {                         \
    if (!parseValue(Text, Out.Name, Min, Max)) {                               \
      Out.Name = Default;                                                      \
      reportBadValue(Env, Text, static_cast<Type>(Default), Min, Max);         \
    }                                                                          \
  }
  SPINELPROF_FLAG_LIST(SPINELPROF_FLAG_PARSE)
#undef SPINELPROF_FLAG_PARSE
}

} // namespace spinelprof
