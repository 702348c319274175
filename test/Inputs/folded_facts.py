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

usage: folded_facts.py sum-timed FOLDED SUBSTRING TIMES KIND HZ
  Like sum, with the bounds from a wait the program timed itself: TIMES
  has lines 'KIND NS CALLS' (the calls' total length and number). A call
  counts its length at HZ, the remainder carried to the next call (+-1 a
  call), and the profiler's span of a call lies inside the program's:
  at most NS x HZ + CALLS samples, at least 80 % of NS x HZ less CALLS
  (the program's reads, and a preemption between them and the
  profiler's, are in its NS only).

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


def total_containing(path, sub):
    return sum(c for frames, c in stacks(path) if sub in ';'.join(frames))


def timed_wait(path, kind):
    try:
        with open(path) as f:
            lines = [line.split() for line in f]
    except OSError as e:
        fail(f'{path}: {e.strerror}')
    for number, fields in enumerate(lines, 1):
        if len(fields) != 3 or not fields[1].isdigit() or not fields[2].isdigit():
            fail(f'{path}:{number}: expected "KIND NS CALLS"')
        if fields[0] == kind:
            return int(fields[1]), int(fields[2])
    fail(f'{path}: no line for {kind!r}')


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
        total = total_containing(path, sub)
        within(path, f'the total count of stacks containing {sub!r}', total, low, high)
        print(f'{sub} total within {low}..{high}')
    elif len(argv) == 6 and argv[0] == 'sum-timed':
        path, sub, times, kind, hz = argv[1], argv[2], argv[3], argv[4], int(argv[5])
        ns, calls = timed_wait(times, kind)
        expected = ns * hz / 1e9
        low, high = max(0, int(0.8 * expected) - calls), int(expected) + calls
        total = total_containing(path, sub)
        within(path, f'the total count of stacks containing {sub!r} '
               f'({kind}: {ns / 1e6:.1f} ms in {calls} calls, {expected:.0f} samples at {hz} Hz)',
               total, low, high)
        print(f'{sub} total within {kind}\'s timed length')
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
