#!/usr/bin/env python3
"""usage: check_native_share.py FOLDED METHOD TRUTH --tolerance PP [--leaf PREFIX]

Of the samples whose stack holds METHOD, the share whose leaf starts with
PREFIX (default "[native]"), against the truth: TRUTH has the lines
"native NS" and "own NS", the time of the method's library calls and of
its own code, each measured from outside. Prints "native leaf ok" when the
share is within PP percentage points, else both shares."""
import argparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('method')
    ap.add_argument('truth')
    ap.add_argument('--tolerance', type=float, required=True)
    ap.add_argument('--leaf', default='[native]')
    a = ap.parse_args()
    t = dict(l.split() for l in open(a.truth) if l.strip() and not l.startswith('#'))
    true = 100 * float(t['native']) / (float(t['native']) + float(t['own']))
    own = native = 0
    for line in open(a.folded):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        f = stack.split(';')
        if a.method not in f:
            continue
        if f[-1].startswith(a.leaf):
            native += int(n)
        else:
            own += int(n)
    if own + native < 100:
        print(f'only {own + native} samples of {a.method}')
        return
    got = 100 * native / (own + native)
    print('native leaf ok' if abs(got - true) <= a.tolerance
          else f'native leaf: true {true:.1f}% measured {got:.1f}%')


if __name__ == '__main__':
    main()
