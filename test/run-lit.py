#!/usr/bin/env python3
"""Run lit on the suite and end with one plain 'N passed, N failed' line.

usage: run-lit.py PYTHON LIT BUILD_TEST_DIR [lit args...]
Extra lit arguments may also come from $LIT_OPTS (lit reads it itself).
"""
import re
import subprocess
import sys

python, lit, test_dir, *extra = sys.argv[1:]
cmd = [lit] if not lit.endswith('.py') else [python, lit]
proc = subprocess.run(cmd + ['-sv', test_dir] + extra, stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, text=True)
sys.stdout.write(proc.stdout)
counts = {}
for m in re.finditer(r'^\s*(Passed|Failed|Unsupported|Expectedly Failed|Unresolved|Timed Out|Unexpectedly Passed)\s*:\s*(\d+)',
                     proc.stdout, re.M):
    counts[m.group(1)] = int(m.group(2))
passed = counts.get('Passed', 0) + counts.get('Expectedly Failed', 0)
failed = sum(counts.get(k, 0) for k in ('Failed', 'Unresolved', 'Timed Out', 'Unexpectedly Passed'))
skipped = counts.get('Unsupported', 0)
print(f'lit: {passed} passed, {failed} failed, {skipped} skipped')
sys.exit(proc.returncode if proc.returncode else (1 if failed or not passed else 0))
