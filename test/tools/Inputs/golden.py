#!/usr/bin/env python3
"""Compares an output with its golden file: golden.py ACTUAL GOLDEN.

With SPINELPROF_BLESS=1 in the environment (passed through by lit.cfg.py:
`SPINELPROF_BLESS=1 ninja -C build check`) the golden file is rewritten
from ACTUAL instead, so an intended change is one command and a reviewed
diff.
"""
import difflib
import os
import sys


def main():
    actual_path, golden_path = sys.argv[1], sys.argv[2]
    with open(actual_path, "rb") as f:
        actual = f.read()
    if os.environ.get("SPINELPROF_BLESS") == "1":
        with open(golden_path, "wb") as f:
            f.write(actual)
        print("blessed %s" % golden_path)
        return 0
    try:
        with open(golden_path, "rb") as f:
            golden = f.read()
    except OSError as e:
        print("%s: %s (run with SPINELPROF_BLESS=1 to create it)" % (golden_path, e.strerror))
        return 1
    if actual == golden:
        return 0
    diff = difflib.unified_diff(
        golden.decode("utf-8", "replace").splitlines(True),
        actual.decode("utf-8", "replace").splitlines(True),
        golden_path, actual_path)
    sys.stdout.writelines(diff)
    print("\n%s differs from its golden file; if the change is intended, "
          "rerun with SPINELPROF_BLESS=1" % actual_path)
    return 1


if __name__ == "__main__":
    sys.exit(main())
