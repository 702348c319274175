#!/usr/bin/env python3
"""usage: check_truth.py FOLDED TRUTH --tolerance PP [--min-samples N]

Compares a profile with a test program's ground truth (test/Inputs/truth.h):
TRUTH has "NAME NANOSECONDS" lines, each a frame's time measured from its
caller. A row's measured share is the fraction of the samples whose stack
holds a frame of that name (its own time and its callees', native leaves
and blocking frames included), among the samples holding any row's frame;
its true share is its time among the rows' times. Prints one line per row
and "truth ok" when every row is within PP percentage points, else the
rows that are not."""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('truth')
    ap.add_argument('--tolerance', type=float, required=True)
    ap.add_argument('--min-samples', type=int, default=100)
    a = ap.parse_args()
    truth = {}
    for line in open(a.truth):
        if line.startswith('#') or not line.strip():
            continue
        name, ns = line.split()
        truth[name] = float(ns)
    counts = dict.fromkeys(truth, 0)
    total = 0
    for line in open(a.folded):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        frames = set(stack.split(';'))
        hit = [r for r in truth if r in frames]
        if hit:
            total += int(n)
            for r in hit:
                counts[r] += int(n)
    if total < a.min_samples:
        print(f'only {total} samples in the rows (< {a.min_samples})')
        return
    true_total = sum(truth.values())
    bad = []
    for r in truth:
        t = 100 * truth[r] / true_total
        m = 100 * counts[r] / total
        print(f'{r}: true {t:.1f}% measured {m:.1f}% ({m - t:+.1f} pp)', file=sys.stderr)
        if abs(m - t) > a.tolerance:
            bad.append(f'{r} true {t:.1f}% measured {m:.1f}%')
    print('truth ok' if not bad else 'off: ' + '; '.join(bad))


if __name__ == '__main__':
    main()
