#!/usr/bin/env python3
"""Check a .sprof's "timeline" (docs/formats.md, "Timeline") and print
facts about it for FileCheck.

usage: timeline_facts.py SPROF [--before A B] [--exact-sums] [--max-events N]
                                [--event STACK LOW HIGH]

Fails (exit 1, message on stderr) when: a column's length differs from
time_ns's; a "sample" index is out of range or names a sample of another
thread; a time delta is negative; the entries are not in ascending thread
order or a thread has two; --exact-sums and a thread's events do not add
up to its samples' counts and weights (only for threads with "missing" 0:
a missing record is in "samples" but in no event); --max-events and the
timeline has more events (the cap's bound). --before A B: every event
whose stack has frame A comes before every event whose stack has frame B
(in the thread's order of events). --event: the largest event of STACK
(frame names joined by ';') counts LOW to HIGH samples.

Prints, one line each:
  thread TID events=N bucket_ns=B merged=M missing=X
  phases THREAD: NAME NAME ...   (the leaf-most of A/B/other frames, runs
                                  of equal names collapsed, in order)
  first_ms THREAD MS             (the first event's time, whole ms)
  span_ms THREAD MS              (first to last event, whole ms)
  biggest THREAD COUNT STACK     (the event of the largest count)
  before A B ok                  (with --before)
  sums ok                        (with --exact-sums)
  event STACK COUNT ok           (with --event)
"""
import argparse
import json
import sys


def fail(msg):
    print(f'timeline_facts: error: {msg}', file=sys.stderr)
    sys.exit(1)


def entry_stacks(entry, samples, names, weight_key):
    """One thread's entry checked: its columns of time_ns's length, no
    negative delta, every sample index its thread's. Returns its events'
    stacks (frame names, root first)."""
    tid = entry['thread']
    times = entry['time_ns']
    n = len(times)
    for key in ('sample', 'count', weight_key):
        if len(entry[key]) != n:
            fail(f'thread {tid}: {key} has {len(entry[key])} elements, '
                 f'time_ns {n}')
    if any(d < 0 for d in times):
        fail(f'thread {tid}: a negative time delta')
    stacks = []
    for i in entry['sample']:
        if not 0 <= i < len(samples):
            fail(f'thread {tid}: sample index {i} out of range')
        if samples[i]['thread'] != tid:
            fail(f'thread {tid}: sample {i} is of thread '
                 f'{samples[i]["thread"]}')
        stacks.append([names[f] for f in samples[i]['stack']])
    return stacks


def print_times(entry, stacks):
    """The first event's time, the span and the largest event."""
    tid, times = entry['thread'], entry['time_ns']
    if not times:
        return
    absolute, t = [], 0
    for d in times:
        t += d
        absolute.append(t)
    print(f'first_ms {tid} {absolute[0] // 1000000}')
    print(f'span_ms {tid} {(absolute[-1] - absolute[0]) // 1000000}')
    big = max(range(len(times)), key=lambda k: entry['count'][k])
    print(f'biggest {tid} {entry["count"][big]} {";".join(stacks[big])}')


def check_before(tid, stacks, a, b):
    """Every event of A before every event of B; prints the phases."""
    n = len(stacks)
    last_a = max((k for k in range(n) if a in stacks[k]), default=-1)
    first_b = min((k for k in range(n) if b in stacks[k]), default=n)
    # The records of one thread are made in order, so even one
    # event of A after one of B is a fault, not noise.
    if last_a > first_b:
        fail(f'thread {tid}: an event of {a} (#{last_a}) after one '
             f'of {b} (#{first_b})')
    phases = []
    for s in stacks:
        name = a if a in s else b if b in s else 'other'
        if not phases or phases[-1] != name:
            phases.append(name)
    print(f'phases {tid}: {" ".join(phases)}')


def check_sums(entry, samples, weight_key):
    """The thread's events add up to its samples' counts and weights."""
    tid = entry['thread']
    want_count = sum(s['count'] for s in samples if s['thread'] == tid)
    want_weight = sum(s[weight_key] for s in samples if s['thread'] == tid)
    if sum(entry['count']) != want_count:
        fail(f'thread {tid}: events count {sum(entry["count"])}, '
             f'samples {want_count}')
    if sum(entry[weight_key]) != want_weight:
        fail(f'thread {tid}: events weigh {sum(entry[weight_key])}, '
             f'samples {want_weight}')


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument('sprof')
    ap.add_argument('--before', nargs=2, metavar=('A', 'B'))
    ap.add_argument('--exact-sums', action='store_true')
    ap.add_argument('--max-events', type=int)
    ap.add_argument('--event', nargs=3, metavar=('STACK', 'LOW', 'HIGH'))
    return ap.parse_args()


def main():
    args = parse_args()
    p = json.load(open(args.sprof))
    samples = p['samples']
    weight_key = 'bytes' if p.get('profile') == 'alloc' else 'weight_ns'
    names = [f['name'] for f in p['frames']]
    total_events = 0
    event_count = None
    previous_tid = None
    for entry in p['timeline']:
        tid = entry['thread']
        if previous_tid is not None and tid <= previous_tid:
            fail(f'thread {tid} out of order or repeated')
        previous_tid = tid
        stacks = entry_stacks(entry, samples, names, weight_key)
        n = len(stacks)
        total_events += n
        print(f'thread {tid} events={n} bucket_ns={entry["bucket_ns"]} '
              f'merged={entry["merged"]} missing={entry["missing"]}')
        print_times(entry, stacks)
        if args.event:
            for k in range(n):
                if ';'.join(stacks[k]) == args.event[0]:
                    event_count = max(event_count or 0, entry['count'][k])
        if args.before:
            check_before(tid, stacks, *args.before)
        if args.exact_sums and entry['missing'] == 0:
            check_sums(entry, samples, weight_key)
    if args.before:
        print(f'before {args.before[0]} {args.before[1]} ok')
    if args.exact_sums:
        print('sums ok')
    if args.event:
        low, high = int(args.event[1]), int(args.event[2])
        if event_count is None or not low <= event_count <= high:
            fail(f'the largest event of {args.event[0]} counts {event_count}, '
                 f'not {low} to {high}')
        print(f'event {args.event[0]} {event_count} ok')
    if args.max_events is not None and total_events > args.max_events:
        fail(f'{total_events} events, more than {args.max_events}')


if __name__ == '__main__':
    main()
