#!/usr/bin/env python3
"""Run a profiled command many times and count the samples of all runs.

usage: samples_over_runs.py RUNS MAX DIR COMMAND [ARGS...]
  Runs COMMAND RUNS times, each with SPINEL_PROFILE=DIR/run-K.folded
  (the environment otherwise inherited), and sums the counts of every
  folded line. Prints 'ok: N samples in RUNS runs' when N <= MAX, else
  'too many: N samples in RUNS runs' and each run's stacks. Exits 1 when a
  run fails.
"""
import os
import subprocess
import sys

runs, most, folder, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
os.makedirs(folder, exist_ok=True)
total, stacks = 0, []
for k in range(runs):
    path = os.path.join(folder, f'run-{k}.folded')
    if subprocess.call(cmd, env=dict(os.environ, SPINEL_PROFILE=path)) != 0:
        sys.exit(f'run {k} of {cmd[0]} failed')
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip('\n').rpartition(' ')
            total += int(count)
            stacks.append(f'run {k}: {line.rstrip()}')
if total <= most:
    print(f'ok: {total} samples in {runs} runs')
else:
    print(f'too many: {total} samples in {runs} runs')
    print('\n'.join(stacks))
