#!/usr/bin/env python3
"""Run each libFuzzer target for a while over its seed corpus.

usage: run-fuzzers.py --bin DIR --corpus DIR --seconds N TARGET...

Each target starts from fuzz/corpus/<target>/ (read only) and keeps what it
finds in a scratch directory; a crash leaves crash-* in the build's fuzz/
directory and makes this script fail. Prints one line per target with its
executions.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument('--bin', required=True)
ap.add_argument('--corpus', required=True)
ap.add_argument('--seconds', type=int, default=60)
ap.add_argument('targets', nargs='+')
args = ap.parse_args()

failed = []
for target in args.targets:
    seeds = os.path.join(args.corpus, target)
    with tempfile.TemporaryDirectory(prefix=target + '-') as scratch:
        cmd = [os.path.join(args.bin, target), scratch, seeds,
               '-max_total_time=%d' % args.seconds, '-timeout=10', '-rss_limit_mb=2048',
               '-max_len=65536', '-print_final_stats=1',
               '-artifact_prefix=%s/' % args.bin]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors='replace')
    execs = re.search(r'stat::number_of_executed_units:\s*(\d+)', proc.stdout)
    status = 'ok' if proc.returncode == 0 else 'FAILED (exit %d)' % proc.returncode
    print('%s: %s executions in %d s, %s' % (target, execs.group(1) if execs else '?',
                                           args.seconds, status), flush=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-6000:])
        failed.append(target)
if failed:
    print('fuzz: failed: ' + ' '.join(failed))
    sys.exit(1)
print('fuzz: %d targets, no crash' % len(args.targets))
