#!/usr/bin/env python3
"""usage: check_unnamed_native.py FOLDED --object libc.so.6 --max PCT [--min-native N]

Of the samples whose leaf is native ("[native] ..."), the share left as the
object's unnamed leaf "[native] OBJECT". Prints the figures; fails when
that share is above PCT percent or there are fewer than N native samples."""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('--object', required=True)
    ap.add_argument('--max', type=float, required=True)
    ap.add_argument('--min-native', type=int, default=1)
    a = ap.parse_args()
    native = unnamed = 0
    for line in open(a.folded):
        if not line.strip():
            continue
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        leaf = stack.split(';')[-1]
        if leaf.startswith('[native] '):
            native += int(n)
            if leaf == '[native] ' + a.object:
                unnamed += int(n)
    share = 100.0 * unnamed / native if native else 0.0
    print(f'native samples {native}, unnamed [native] {a.object} {unnamed} ({share:.2f}%)')
    if native < a.min_native:
        sys.exit(f'fewer than {a.min_native} native samples')
    if share > a.max:
        sys.exit(f'{share:.2f}% of native samples unnamed, more than {a.max}%')


if __name__ == '__main__':
    main()
