#!/bin/sh
# Stands in for clang in the `spinel-prof cc` tests: prints what the plugin
# would see in its environment and each argument on its own line, then exits
# with $FAKE_CLANG_STATUS or dies of signal $FAKE_CLANG_SIGNAL.
echo "SYMBOLS=${SPINEL_PROFILE_SYMBOLS-<unset>}"
echo "INCLUDE=${SPINEL_PROFILE_INCLUDE-<unset>}"
echo "EXCLUDE=${SPINEL_PROFILE_EXCLUDE-<unset>}"
if [ -n "${SPINEL_PROFILE_TLS+set}" ]; then
  echo "TLS=$SPINEL_PROFILE_TLS"
fi
for Arg in "$@"; do
  echo "ARG: $Arg"
done
echo "END"
if [ -n "$FAKE_CLANG_SIGNAL" ]; then
  kill -s "$FAKE_CLANG_SIGNAL" $$
fi
exit "${FAKE_CLANG_STATUS:-0}"
