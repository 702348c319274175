#!/usr/bin/env python3
"""Report how a command ends, for tests that must see the exact exit status.

usage: exit_status.py COMMAND [ARGS...]
  Runs it with inherited stdout/stderr, then prints 'exit status: N' (or
  'signal: N') on stdout; exits 0.

usage: exit_status.py --compare PROFILE COMMAND [ARGS...]
  Runs it twice, with SPINEL_PROFILE=0 and with SPINEL_PROFILE=PROFILE,
  capturing stdout (stderr is inherited). Prints the profiled run's stdout,
  its 'exit status: N' / 'signal: N' line, then 'identical' if both runs
  printed the same stdout and ended the same way, else the two outcomes.
"""
import os
import subprocess
import sys


def ending(rc):
    return f'exit status: {rc}' if rc >= 0 else f'signal: {-rc}'


args = sys.argv[1:]
if args[:1] != ['--compare']:
    sys.stdout.flush()
    print(ending(subprocess.call(args)))
    sys.exit(0)
profile, cmd = args[1], args[2:]
runs = []
for value in ('0', profile):
    env = dict(os.environ, SPINEL_PROFILE=value)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE)
    runs.append((p.stdout, p.returncode))
sys.stdout.write(runs[1][0].decode('utf-8', 'replace'))
print(ending(runs[1][1]))
print('identical' if runs[0] == runs[1] else f'DIFFERENT: off={runs[0]!r} on={runs[1]!r}')
