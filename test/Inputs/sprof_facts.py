#!/usr/bin/env python3
"""Facts about a .sprof profile (docs/formats.md), for FileCheck.

usage: sprof_facts.py weight-total SPROF MIN_SHARE
  Checks that the samples' weights add up to at most the profile's
  cpu_time_ns and more than MIN_SHARE of it; prints 'sample weights ok'.

usage: sprof_facts.py thread-shares SPROF PREFIX RATIO:TOLERANCE...
  The threads named PREFIX*, by weight: one more than there are RATIOs,
  the lightest taken as 1, each other within TOLERANCE of its RATIO (in
  order of weight). Prints 'shares 1.0 R1 R2 ... ok'.

usage: sprof_facts.py leaf-threads SPROF NAME MIN
  Checks that at least MIN threads have samples whose leaf frame is NAME;
  prints 'threads with NAME on top: at least MIN'.

usage: sprof_facts.py field SPROF KEY[.KEY...]
  Prints 'KEY VALUE' for a (nested) metadata key.

A violated check exits 1 with a message on stderr naming the file, what
was found and what was expected.
"""
import json
import sys


def fail(msg):
    print(f'sprof_facts: error: {msg}', file=sys.stderr)
    sys.exit(1)


def weight_total(path, p, min_share):
    total = sum(s['weight_ns'] for s in p['samples'])
    cpu = p['cpu_time_ns']
    if not min_share * cpu < total <= cpu:
        fail(f'{path}: the samples weigh {total} ns in all, expected more than '
             f'{min_share} of cpu_time_ns ({cpu}) and at most all of it')
    print('sample weights ok')


def thread_shares(path, p, prefix, specs):
    weights = sorted(t['weight_ns'] for t in p['threads'] if t['name'].startswith(prefix))
    if len(weights) != len(specs) + 1 or weights[0] <= 0:
        fail(f'{path}: {len(weights)} threads named {prefix}* with weights {weights}, '
             f'expected {len(specs) + 1} with weight')
    shares = [w / weights[0] for w in weights]
    text = ' '.join(f'{s:.1f}' for s in shares)
    for share, spec in zip(shares[1:], specs):
        ratio, tolerance = (float(x) for x in spec.split(':'))
        if abs(share - ratio) >= tolerance:
            fail(f'{path}: {prefix}* threads weigh {text} times the lightest; '
                 f'expected {ratio} within {tolerance}, got {share:.2f}')
    print('shares', text, 'ok')


def leaf_threads(path, p, name, least):
    tids = {s['thread'] for s in p['samples']
            if p['frames'][s['stack'][-1]]['name'] == name}
    if len(tids) < least:
        fail(f'{path}: {len(tids)} threads have samples with {name} on top, '
             f'expected at least {least}')
    print(f'threads with {name} on top: at least {least}')


def field(path, p, key):
    value = p
    for part in key.split('.'):
        if not isinstance(value, dict) or part not in value:
            fail(f'{path}: no key {key}')
        value = value[part]
    print(key, value)


def main(argv):
    if len(argv) < 3:
        fail('usage: sprof_facts.py weight-total|thread-shares|leaf-threads|field SPROF ... '
             '(see the script)')
    command, path, args = argv[0], argv[1], argv[2:]
    with open(path) as f:
        p = json.load(f)
    if command == 'weight-total' and len(args) == 1:
        weight_total(path, p, float(args[0]))
    elif command == 'thread-shares' and len(args) >= 2:
        thread_shares(path, p, args[0], args[1:])
    elif command == 'leaf-threads' and len(args) == 2:
        leaf_threads(path, p, args[0], int(args[1]))
    elif command == 'field' and len(args) == 1:
        field(path, p, args[0])
    else:
        fail(f'bad arguments for {command}: {args} (see the script)')


if __name__ == '__main__':
    main(sys.argv[1:])
