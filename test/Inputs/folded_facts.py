#!/usr/bin/env python3
"""Facts about a folded-stacks file ('A;B;C COUNT' lines), for FileCheck.

usage: folded_facts.py first-stack FOLDED INDEX...
  Prints the number of frames of the file's first stack, then the frame at
  each INDEX (Python indexing: -1 is the leaf), on one line.

usage: folded_facts.py max-repeats FOLDED NAME LOW HIGH
  Checks that the largest number of times NAME occurs in one stack is
  within LOW..HIGH; prints 'deepest NAME chain: N, within LOW..HIGH'.

usage: folded_facts.py sum FOLDED SUBSTRING LOW HIGH
  Checks that the counts of the lines containing SUBSTRING add up to a
  number within LOW..HIGH; prints 'SUBSTRING total within LOW..HIGH'.

usage: folded_facts.py leaf-share FOLDED PREFIX LOW HIGH
  Checks that the share (percent) of all samples whose leaf starts with
  PREFIX is within LOW..HIGH; prints 'PREFIX leaf share within LOW..HIGH'.

A violated check exits 1 with a message on stderr naming the file, what
was found and what was expected.
"""
import sys


def fail(msg):
    print(f'folded_facts: error: {msg}', file=sys.stderr)
    sys.exit(1)


def stacks(path):
    """(frames, count) of each line of PATH."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            stack, sep, count = line.rstrip('\n').rpartition(' ')
            if not sep or not count.isdigit():
                fail(f'{path}:{n}: not "stack count": {line.rstrip()!r}')
            out.append((stack.split(';'), int(count)))
    if not out:
        fail(f'{path}: no stacks')
    return out


def first_stack(path, indexes):
    frames = stacks(path)[0][0]
    picked = []
    for i in indexes:
        if not -len(frames) <= i < len(frames):
            fail(f'{path}:1: the first stack has {len(frames)} frames, no index {i}')
        picked.append(frames[i])
    print(len(frames), *picked)


def within(path, what, value, low, high):
    if not low <= value <= high:
        fail(f'{path}: {what} is {value}, expected {low}..{high}')


def main(argv):
    if len(argv) >= 3 and argv[0] == 'first-stack':
        first_stack(argv[1], [int(a) for a in argv[2:]])
    elif len(argv) == 5 and argv[0] == 'max-repeats':
        path, name, low, high = argv[1], argv[2], int(argv[3]), int(argv[4])
        deepest = max(frames.count(name) for frames, _ in stacks(path))
        within(path, f'the deepest {name} chain', deepest, low, high)
        print(f'deepest {name} chain: {deepest}, within {low}..{high}')
    elif len(argv) == 5 and argv[0] == 'sum':
        path, sub, low, high = argv[1], argv[2], int(argv[3]), int(argv[4])
        total = sum(c for frames, c in stacks(path) if sub in ';'.join(frames))
        within(path, f'the total count of stacks containing {sub!r}', total, low, high)
        print(f'{sub} total within {low}..{high}')
    elif len(argv) == 5 and argv[0] == 'leaf-share':
        path, prefix, low, high = argv[1], argv[2], float(argv[3]), float(argv[4])
        all_ = stacks(path)
        leaf = sum(c for frames, c in all_ if frames[-1].startswith(prefix))
        share = round(100 * leaf / sum(c for _, c in all_), 2)
        within(path, f'the share of samples with a {prefix!r} leaf (%)', share, low, high)
        print(f'{prefix} leaf share within {low:g}..{high:g}')
    else:
        fail('usage: folded_facts.py first-stack|max-repeats|sum|leaf-share FOLDED ... (see the script)')


if __name__ == '__main__':
    main(sys.argv[1:])
