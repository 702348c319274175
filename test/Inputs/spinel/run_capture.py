#!/usr/bin/env python3
"""Run a program and print what it did, so two runs can be diffed.

usage: run_capture.py [--drop-prefix P] PROGRAM [ARGS...]

Prints the program's stdout, then `--- stderr`, its stderr (without lines
starting with P, e.g. the profiler's own summary line), then `--- exit N` or
`--- signal N`. Always exits 0 itself, unless the program cannot be run (2).
"""
import subprocess
import sys

args = sys.argv[1:]
drop = None
if len(args) >= 2 and args[0] == '--drop-prefix':
    drop, args = args[1], args[2:]
if not args:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
try:
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
except OSError as e:
    print(f'run_capture: {args[0]}: {e.strerror}', file=sys.stderr)
    sys.exit(2)
out = sys.stdout.buffer
out.write(proc.stdout)
out.write(b'--- stderr\n')
for line in proc.stderr.splitlines(keepends=True):
    if drop is None or not line.startswith(drop.encode()):
        out.write(line)
if proc.returncode < 0:
    out.write(f'--- signal {-proc.returncode}\n'.encode())
else:
    out.write(f'--- exit {proc.returncode}\n'.encode())
