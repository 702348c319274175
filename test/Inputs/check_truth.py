#!/usr/bin/env python3
"""usage: check_truth.py FOLDED TRUTH --tolerance PP [--min-samples N] [--by-weight]

Compares a profile with a test program's ground truth (test/Inputs/truth.h):
TRUTH has "NAME NANOSECONDS" lines, each a frame's time measured from its
caller. A row's measured share is the fraction of the samples whose stack
holds a frame of that name (its own time and its callees', native leaves
and blocking frames included), among the samples holding any row's frame;
its true share is its time among the rows' times. Prints one line per row
and "truth ok" when every row is within PP percentage points, else the
rows that are not. With --by-weight the shares are of the samples'
weight_ns in the .sprof beside FOLDED (wall mode's estimate: each sample
weighs the wall time it stands for) instead of their counts."""
import argparse
import json
import os
import sys


def folded_stacks(path):
    """(set of frame names, samples, weight) per stack of a .folded file."""
    for line in open(path):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        yield set(stack.split(';')), int(n), int(n)


def sprof_stacks(path):
    """The same from the .sprof beside a .folded file, with weight_ns."""
    p = json.load(open(os.path.splitext(path)[0] + '.sprof'))
    names = [f['name'] for f in p['frames']]
    for s in p['samples']:
        yield {names[i] for i in s['stack']}, s['count'], s['weight_ns']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('truth')
    ap.add_argument('--tolerance', type=float, required=True)
    ap.add_argument('--min-samples', type=int, default=100)
    ap.add_argument('--by-weight', action='store_true')
    a = ap.parse_args()
    truth = {}
    for line in open(a.truth):
        if line.startswith('#') or not line.strip():
            continue
        name, ns = line.split()
        truth[name] = float(ns)
    measured = dict.fromkeys(truth, 0)
    total, samples = 0, 0
    for frames, n, weight in (sprof_stacks if a.by_weight else folded_stacks)(a.folded):
        hit = [r for r in truth if r in frames]
        if hit:
            samples += n
            total += weight
            for r in hit:
                measured[r] += weight
    if samples < a.min_samples:
        print(f'only {samples} samples in the rows (< {a.min_samples})')
        return
    true_total = sum(truth.values())
    bad = []
    for r in truth:
        t = 100 * truth[r] / true_total
        m = 100 * measured[r] / total
        print(f'{r}: true {t:.2f}% measured {m:.2f}% ({m - t:+.2f} pp)', file=sys.stderr)
        if abs(m - t) > a.tolerance:
            bad.append(f'{r} true {t:.1f}% measured {m:.1f}%')
    print('truth ok' if not bad else 'off: ' + '; '.join(bad))


if __name__ == '__main__':
    main()
