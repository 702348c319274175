#!/usr/bin/env python3
"""Reads an allocation profile (<name>.alloc.sprof) and prints, per stack
(frame names joined by ';', threads merged), its objects and bytes, sorted
by stack, then the totals. Checks first that the .alloc.folded beside it
(or --folded) carries the same bytes per stack.

With --by-thread it prints each thread's objects and bytes instead
("thread objects=N bytes=M", most objects first).

With --expect STACK=OBJECTS,BYTES (repeatable) and --tolerance PCT it
instead checks that each listed stack's objects and bytes are within PCT
percent of the expectation, printing one line per expectation ("ok ..." or
"FAIL ...") with the deviation.
"""
import argparse
import json
import sys
from collections import defaultdict


def decode(name):
    return (name.replace('%3B', ';').replace('%0A', '\n').replace('%0D', '\r')
            .replace('%25', '%'))


def print_threads(sprof, doc):
    """Each thread's objects and bytes, most objects first, checked against
    what "threads" lists."""
    per_thread = defaultdict(lambda: [0, 0])
    for s in doc['samples']:
        per_thread[s['thread']][0] += s['count']
        per_thread[s['thread']][1] += s['bytes']
    listed = {t['tid']: (t['samples'], t['bytes']) for t in doc['threads']}
    for tid, (o, b) in sorted(per_thread.items(), key=lambda kv: -kv[1][0]):
        if listed.get(tid) != (o, b):
            sys.exit(f'{sprof}: thread {tid} lists {listed.get(tid)}, '
                     f'its samples add up to {(o, b)}')
        print(f'thread objects={o} bytes={b}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sprof')
    ap.add_argument('--folded')
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('--tolerance', type=float, default=0.0)
    ap.add_argument('--by-thread', action='store_true')
    args = ap.parse_args()

    with open(args.sprof, encoding='utf-8') as f:
        doc = json.load(f)
    if doc.get('profile') != 'alloc':
        sys.exit(f'{args.sprof}: "profile" is {doc.get("profile")!r}, not "alloc"')
    names = [fr['name'] for fr in doc['frames']]
    objects = defaultdict(int)
    size = defaultdict(int)
    for s in doc['samples']:
        stack = ';'.join(names[i] for i in s['stack'])
        objects[stack] += s['count']
        size[stack] += s['bytes']

    folded_path = args.folded or doc['folded']['path']
    folded = defaultdict(int)
    with open(folded_path, encoding='utf-8') as f:
        for line in f:
            stack, _, count = line.rstrip('\n').rpartition(' ')
            folded[';'.join(decode(n) for n in stack.split(';'))] += int(count)
    if dict(folded) != {k: v for k, v in size.items() if v}:
        sys.exit(f'{folded_path} does not match {args.sprof}')
    if doc['folded']['unit'] != 'bytes':
        sys.exit(f'{args.sprof}: folded.unit is {doc["folded"]["unit"]!r}')
    if doc['sample_count'] != sum(objects.values()):
        sys.exit(f'{args.sprof}: sample_count {doc["sample_count"]} is not the '
                 f'sum of the counts {sum(objects.values())}')

    if args.by_thread:
        print_threads(args.sprof, doc)
        return
    if not args.expect:
        for stack in sorted(objects):
            print(f'{stack} objects={objects[stack]} bytes={size[stack]}')
        print(f'total objects={sum(objects.values())} bytes={sum(size.values())}')
        return
    for e in args.expect:
        stack, _, want = e.rpartition('=')
        want_objects, want_bytes = (int(x) for x in want.split(','))
        got_objects, got_bytes = objects.get(stack, 0), size.get(stack, 0)
        dev_objects = (got_objects - want_objects) / want_objects * 100
        dev_bytes = (got_bytes - want_bytes) / want_bytes * 100
        ok = abs(dev_objects) <= args.tolerance and abs(dev_bytes) <= args.tolerance
        print(f'{"ok" if ok else "FAIL"} {stack}: objects {got_objects} '
              f'({dev_objects:+.1f}%), bytes {got_bytes} ({dev_bytes:+.1f}%)')


if __name__ == '__main__':
    main()
