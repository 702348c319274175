#!/usr/bin/env python3
"""usage: check_wall_weights.py SPROF

Wall mode: each thread's samples weigh the wall time they stand for, which
can never exceed the run's duration (a first sample weighed from 0 or from
the CPU clock once weighed the machine's uptime, ~10^3-10^4 s). Prints
"wall weights ok", or what is wrong.

Bounds: a thread's weight is at most the run's duration plus 2 % (the last
sample's period may end just after the duration was read), and the main
thread's at least 70 % of it (it is registered at start-up and sampled
until exit; the margin covers the start-up before registration and the
last, unfinished period). The achieved rate is within 50-110 % of the
requested one (an uptime weight gives ~0.2 Hz).

The main thread is the one named "main" (docs/formats.md), not the first
listed: threads are listed by tid, and once the kernel's pids wrap around
(pid_max is 32768 here; a CI run starts tens of thousands of processes) a
thread started later can have the smaller tid. Taking the first read a
second thread's 205 ms as the main thread's in a 492 ms run (reproduced
by writing 32766 to /proc/sys/kernel/ns_last_pid before a run)."""
import json
import sys

p = json.load(open(sys.argv[1]))
dur = p['duration_ns']
problems = []
for t in p['threads']:
    if t['weight_ns'] > dur * 1.02:
        problems.append(f"thread {t['tid']} weighs {t['weight_ns']} ns in a {dur} ns run")
main = next((t for t in p['threads'] if t['name'] == 'main'), None)
if not main or main['weight_ns'] < 0.7 * dur:
    problems.append(f"main thread weighs {main and main['weight_ns']} ns of a {dur} ns run")
hz = p['requested_hz']
if not 0.5 * hz <= p['achieved_hz'] <= 1.1 * hz:
    problems.append(f"achieved {p['achieved_hz']} Hz for {hz} requested")
print('wall weights ok' if not problems else '\n'.join(problems))
