#!/usr/bin/env python3
"""Send SIGINT or SIGTERM to a profiled program at random moments.

usage: random_signals.py --runs N --dir DIR --expected FILE [--seed S] PROGRAM

Each run starts PROGRAM with SPINEL_PROFILE=DIR/run-K.folded at 10 kHz,
waits a random time (0 to 0.45 s, a third of the runs under 30 ms, i.e.
during start-up), sends SIGINT or SIGTERM, and checks the run:
  - it ended killed by that signal, or with exit status 0 (it had finished);
  - its stdout is a prefix of FILE (the unprofiled output), whole lines,
    and all of FILE when it exited 0;
  - it ended within 20 s;
  - stderr has at most one line, starting with "spinelprof: ";
  - DIR holds no temporary file, and a profile, if written, passes
    check_sprof.py (a run killed before the profiler set its handlers has
    none; one that exited 0 must have one).
Prints the seed first and 'N runs ok' last; exits 1 at the first failure,
named on stdout and on stderr.
"""
import argparse
import glob
import os
import random
import signal
import subprocess
import sys
import time

inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Inputs')
ap = argparse.ArgumentParser()
ap.add_argument('--runs', type=int, required=True)
ap.add_argument('--dir', required=True)
ap.add_argument('--expected', required=True)
ap.add_argument('--seed', type=int, default=None)
ap.add_argument('program')
args = ap.parse_args()
seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
print('random_signals: seed %d' % seed, flush=True)
rng = random.Random(seed)
expected = open(args.expected, 'rb').read()


def fail(run, msg):
    line = 'random_signals: run %d (seed %d): %s' % (run, seed, msg)
    print(line, flush=True)
    # Also on stderr: lit shows a failing command's stderr first, before
    # FileCheck's report, so a truncated log still names the failure.
    print(line, file=sys.stderr)
    sys.exit(1)


tally = {'killed': 0, 'exited': 0, 'profiles': 0}
for run in range(args.runs):
    sig = rng.choice([signal.SIGINT, signal.SIGTERM])
    delay = rng.uniform(0, 0.03) if rng.random() < 1 / 3 else rng.uniform(0, 0.45)
    folded = os.path.join(args.dir, 'run-%d.folded' % run)
    env = dict(os.environ, SPINEL_PROFILE=folded, SPINEL_PROFILE_HZ='10000')
    # Default dispositions for both signals, as a shell's foreground job has.
    proc = subprocess.Popen([args.program], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, restore_signals=True)
    time.sleep(delay)
    try:
        proc.send_signal(sig)
    except ProcessLookupError:
        pass
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(run, 'hung after %s at %.3f s' % (sig.name, delay))
    rc = proc.returncode
    what = '%s at %.3f s' % (sig.name, delay)
    if rc not in (0, -sig):
        # A sanitizer's report (exit status 99 under lit) is in the stderr.
        fail(run, '%s: ended with %s; its stderr:\n%s'
             % (what, rc, err.decode('utf-8', 'replace')[-4000:]))
    if not expected.startswith(out) or (out and not out.endswith(b'\n')):
        fail(run, '%s: stdout is not a prefix of the unprofiled output: %r' % (what, out))
    if rc == 0 and out != expected:
        fail(run, '%s: exited 0 with different output: %r' % (what, out))
    lines = err.decode('utf-8', 'replace').splitlines()
    if len(lines) > 1 or any(not l.startswith('spinelprof: ') for l in lines):
        fail(run, '%s: stderr: %r' % (what, err))
    leftovers = glob.glob(os.path.join(args.dir, '*.tmp-*'))
    if leftovers:
        fail(run, '%s: temporary files left: %s' % (what, leftovers))
    tally['exited' if rc == 0 else 'killed'] += 1
    if os.path.exists(folded):
        tally['profiles'] += 1
        p = subprocess.run([sys.executable, os.path.join(inputs, 'check_sprof.py'), folded],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail(run, '%s: bad profile: %s' % (what, p.stderr.strip()))
    elif rc == 0:
        fail(run, '%s: exited 0 without a profile' % what)
print('random_signals: %d runs ok (%d killed, %d exited, %d profiles)'
      % (args.runs, tally['killed'], tally['exited'], tally['profiles']))
