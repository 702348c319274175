#!/usr/bin/env python3
"""usage: check_rate.py SPROF HZ THREADS [LOW]

Checks a profile's achieved rate against the requested one (within
-15%/+20%, or from LOW times the rate), and that each of the THREADS
burning threads (over 60 ms of CPU) has samples matching the CPU time they
stand for, within the same bounds. The +20 %: a thread preempted for less
than the runtime's 100 us promptness bound gets its signal promptly and
the instant counts as running (docs/design.md, Sampling); on a crowded
CPU that read up to +12 % at 1 kHz. A doubled count still fails."""
import json
import sys

p = json.load(open(sys.argv[1]))
hz, threads = int(sys.argv[2]), int(sys.argv[3])
low = float(sys.argv[4]) if len(sys.argv) > 4 else 0.85
ok = p['requested_hz'] == hz and low * hz <= p['achieved_hz'] <= 1.2 * hz
print('rate ok' if ok else f"rate {p['achieved_hz']} for {hz}")
burners = [t for t in p['threads'] if t['weight_ns'] > 60e6]
good = len(burners) == threads and all(
    low <= t['samples'] / (t['weight_ns'] * hz / 1e9) <= 1.2 for t in burners)
print('threads ok' if good else f"threads {p['threads']}")
