#!/usr/bin/env python3
"""Validate every profile in a directory that matches a pattern.

usage: check_all.py DIR GLOB COUNT [check_stacks.py rules...]

There must be exactly COUNT folded files matching GLOB in DIR, no
leftover temporary file (*.tmp-*), and each must pass check_sprof.py and
check_stacks.py with the given rules. Prints the first failure and exits 1.
"""
import glob
import os
import subprocess
import sys

inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Inputs')
directory, pattern, count, rules = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
files = sorted(glob.glob(os.path.join(directory, pattern)))
leftovers = glob.glob(os.path.join(directory, '*.tmp-*'))
if leftovers:
    sys.exit('check_all: temporary files left behind: %s' % ' '.join(leftovers))
if len(files) != count:
    sys.exit('check_all: %d files match %s, expected %d' % (len(files), pattern, count))
for f in files:
    for cmd in ([sys.executable, os.path.join(inputs, 'check_sprof.py'), f],
                [sys.executable, os.path.join(inputs, 'check_stacks.py'), f] + rules):
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit('check_all: %s: %s' % (f, p.stderr.strip()))
print('check_all: %d profiles ok' % len(files))
