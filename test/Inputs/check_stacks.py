#!/usr/bin/env python3
"""Check that every sampled stack in a folded file is possible.

usage: check_stacks.py FOLDED [--rules FILE] [--prefix P ...]
                              [--root NAME] [--edge 'A -> B, C'] [--leaf 'X >= N%']
                              [--path 'a;b;c >= N%'] [--any 'X >= N%'] [--never X]
                              [--min-samples N]

A test states what its program can do; this fails, listing every stack
that breaks a rule. Rules come from the command line or from comment lines in
a rules file (usually the test itself, `--rules %s`), each starting with a
prefix (default STACKS; `--prefix` may repeat, like FileCheck's
--check-prefixes):

  STACKS: A -> B, C          A may call B and C (an allowlist: an adjacent
                             caller;callee pair no EDGE rule allows is an
                             impossible stack)
  STACKS-ROOT: <main>        the root frame of every stack (may repeat)
  STACKS-LEAF: X >= 40%      X is the leaf of at least 40% of the samples
  STACKS-PATH: a;b;c >= 20%  exactly this stack (root to leaf) has >= 20%
  STACKS-ANY: X >= 10%       X is somewhere in at least 10% of the samples
  STACKS-NEVER: X            X appears in no stack
  STACKS-SAMPLES: >= 50      at least 50 samples in all

In names, `*` matches any run of characters; nothing else is special.
A final "[native] NAME" frame (the runtime's leaf for time outside
instrumented code) may follow any frame, and a rule that does not name a
[native] frame itself sees the stack without it (its caller is the leaf).
A stack rooted at "[unknown]" is a sample taken while the thread had no frame
(start-up before main's first push, exit handlers after its last pop, or a
signal that arrived there late): ROOT and EDGE rules do not apply to it, but
such samples may be at most --max-outside percent (default 5) of all, and a
NEVER rule naming [unknown] still forbids them.
Without any EDGE rule edges are not checked. Percentages are of all samples.
Folded names are decoded (%3B -> ;, %0A, %0D, %25) before matching.
Exit status: 0 all rules hold, 1 a rule fails, 2 bad usage or input.
"""
import argparse
import re
import sys


def die(msg):
    print(f'check_stacks: error: {msg}', file=sys.stderr)
    sys.exit(2)


def decode(name):
    return re.sub(r'%(25|3B|0A|0D)',
                  lambda m: {'25': '%', '3B': ';', '0A': '\n', '0D': '\r'}[m.group(1)],
                  name)


def pattern(text):
    """A name pattern: `*` is a wildcard, everything else literal."""
    text = text.strip()
    if not text:
        die('empty frame name in a rule')
    return re.compile('^' + '.*'.join(re.escape(p) for p in text.split('*')) + '$', re.S)


def threshold(text, what):
    m = re.fullmatch(r'\s*(.*?)\s*>=\s*([0-9.]+)\s*(%?)\s*', text)
    if not m or not m.group(1):
        die(f"bad {what} rule '{text}': expected 'NAME >= N%'")
    return m.group(1), float(m.group(2))


class Rules:
    def __init__(self):
        self.edges = []      # (caller pattern, callee pattern, rule text)
        self.roots = []
        self.leaves = []     # (pattern, text, percent)
        self.paths = []      # (list of patterns, text, percent)
        self.anys = []       # (pattern, text, percent)
        self.never = []
        self.min_samples = 0

    def add(self, kind, text):
        text = text.strip()
        if kind == 'EDGE':
            if '->' not in text:
                die(f"bad edge rule '{text}': expected 'A -> B, C'")
            caller, callees = text.split('->', 1)
            for callee in callees.split(','):
                self.edges.append((pattern(caller), pattern(callee),
                                   f'{caller.strip()} -> {callee.strip()}'))
        elif kind == 'ROOT':
            self.roots.append((pattern(text), text))
        elif kind == 'LEAF':
            name, pct = threshold(text, 'LEAF')
            self.leaves.append((pattern(name), name, pct))
        elif kind == 'ANY':
            name, pct = threshold(text, 'ANY')
            self.anys.append((pattern(name), name, pct))
        elif kind == 'PATH':
            path, pct = threshold(text, 'PATH')
            self.paths.append(([pattern(p) for p in path.split(';')], path, pct))
        elif kind == 'NEVER':
            self.never.append((pattern(text), text))
        elif kind == 'SAMPLES':
            m = re.fullmatch(r'\s*>=\s*(\d+)\s*', text)
            if not m:
                die(f"bad SAMPLES rule '{text}': expected '>= N'")
            self.min_samples = max(self.min_samples, int(m.group(1)))
        else:
            die(f'unknown rule kind {kind}')

    def read(self, path, prefixes):
        kinds = 'ROOT|LEAF|PATH|ANY|NEVER|SAMPLES'
        alt = '|'.join(re.escape(p) for p in prefixes)
        rx = re.compile(rf'(?:^|[^A-Za-z0-9_-])(?:{alt})(?:-({kinds}))?:(.*)$')
        try:
            with open(path, encoding='utf-8') as f:
                for line in f:
                    m = rx.search(line.rstrip('\n'))
                    if m:
                        self.add(m.group(1) or 'EDGE', m.group(2))
        except OSError as e:
            die(f'{path}: {e.strerror}')


def read_folded(path):
    stacks = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip('\n')
                if not line.strip():
                    continue
                stack, _, count = line.rpartition(' ')
                if not stack or not count.isdigit():
                    die(f'{path}:{n}: not a folded line: {line!r}')
                stacks.append(([decode(s) for s in stack.split(';')], int(count)))
    except OSError as e:
        die(f'{path}: {e.strerror}')
    return stacks


def show(frames, mark=None):
    return ';'.join(f'>>{f}<<' if i == mark else f for i, f in enumerate(frames))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('folded')
    ap.add_argument('--rules', action='append', default=[], help='file with rule lines')
    ap.add_argument('--prefix', action='append', help='rule prefix (default STACKS)')
    ap.add_argument('--edge', action='append', default=[])
    ap.add_argument('--root', action='append', default=[])
    ap.add_argument('--leaf', action='append', default=[])
    ap.add_argument('--path', action='append', default=[])
    ap.add_argument('--any', action='append', default=[])
    ap.add_argument('--never', action='append', default=[])
    ap.add_argument('--min-samples', type=int, default=0)
    ap.add_argument('--max-outside', type=float, default=5.0,
                    help='max %% of samples rooted at [unknown] (no frame)')
    return ap.parse_args()


def rules_of(args):
    """The rules of the rules files and the command line."""
    rules = Rules()
    for path in args.rules:
        rules.read(path, args.prefix or ['STACKS'])
    for kind, values in (('EDGE', args.edge), ('ROOT', args.root), ('LEAF', args.leaf),
                         ('PATH', args.path), ('ANY', args.any), ('NEVER', args.never)):
        for v in values:
            rules.add(kind, v)
    rules.min_samples = max(rules.min_samples, args.min_samples)
    return rules


def native(f):
    return f.startswith('[native] ')


def view(frames, p_text):
    """The stack as a rule sees it: without a final native leaf unless
    the rule is about native frames."""
    if '[native]' in p_text or len(frames) < 2 or not native(frames[-1]):
        return frames
    return frames[:-1]


def broken_rules(frames, rules):
    """(frame index, reason) of every ROOT, NEVER and EDGE rule the stack
    breaks."""
    why = []
    is_outside = frames[0] == '[unknown]'
    if (rules.roots and not is_outside and
            not any(p.match(frames[0]) for p, _ in rules.roots)):
        why.append((0, f'root {frames[0]!r} is not an allowed root'))
    for i, f in enumerate(frames):
        for p, text in rules.never:
            if p.match(f):
                why.append((i, f'{f!r} must never appear (NEVER: {text})'))
    if rules.edges and not is_outside:
        for i in range(1, len(frames)):
            a, b = frames[i - 1], frames[i]
            if i == len(frames) - 1 and native(b):
                continue
            if not any(pa.match(a) and pb.match(b) for pa, pb, _ in rules.edges):
                why.append((i, f'no rule lets {a!r} call {b!r}'))
    return sorted(why)


def impossible_stacks(stacks, rules, pct):
    """The failure lines of the stacks that break a rule, each with up to
    three of its reasons."""
    impossible = []
    for frames, count in stacks:
        why = broken_rules(frames, rules)
        if why:
            impossible.append((frames, count, why))
    if not impossible:
        return []
    n = sum(c for _, c, _ in impossible)
    failures = [f'{len(impossible)} impossible stacks ({n} samples, {pct(n):.1f}%):']
    for frames, count, why in impossible:
        failures.append(f'  {count:6d}  {show(frames, why[0][0])}')
        failures.extend(f'          {reason}' for _, reason in why[:3])
        if len(why) > 3:
            failures.append(f'          (and {len(why) - 3} more)')
    return failures


def share_rules(stacks, rules, total, pct):
    """The LEAF, PATH and ANY rules: their failure lines and the shares
    measured."""
    failures, report = [], []
    for p, name, want in rules.leaves:
        n = sum(c for frames, c in stacks if p.match(view(frames, name)[-1]))
        report.append(f'leaf {name} {pct(n):.1f}%')
        if pct(n) < want:
            failures.append(f'{name} is the leaf of {n} of {total} samples '
                            f'({pct(n):.1f}%), want >= {want:g}%')
    for ps, text, want in rules.paths:
        n = sum(c for frames, c in stacks
                if len(view(frames, text)) == len(ps) and
                all(p.match(f) for p, f in zip(ps, view(frames, text))))
        report.append(f'path {text} {pct(n):.1f}%')
        if pct(n) < want:
            failures.append(f'stack {text} has {n} of {total} samples '
                            f'({pct(n):.1f}%), want >= {want:g}%')
    for p, name, want in rules.anys:
        n = sum(c for frames, c in stacks if any(p.match(f) for f in frames))
        report.append(f'any {name} {pct(n):.1f}%')
        if pct(n) < want:
            failures.append(f'{name} is in {n} of {total} samples '
                            f'({pct(n):.1f}%), want >= {want:g}%')
    return failures, report


def main():
    args = parse_args()
    rules = rules_of(args)
    stacks = read_folded(args.folded)
    total = sum(c for _, c in stacks)

    def pct(n):
        return 100.0 * n / total if total else 0.0

    failures = []
    if total < rules.min_samples:
        failures.append(f'only {total} samples, want >= {rules.min_samples}')
    outside = sum(c for frames, c in stacks if frames[0] == '[unknown]')
    if pct(outside) > args.max_outside:
        failures.append(f'{outside} of {total} samples ({pct(outside):.1f}%) have no '
                        f'frame ([unknown] root), want <= {args.max_outside:g}%')
    failures += impossible_stacks(stacks, rules, pct)
    share_failures, report = share_rules(stacks, rules, total, pct)
    failures += share_failures
    if failures:
        print(f'check_stacks: {args.folded}: FAILED', file=sys.stderr)
        for f in failures:
            print(f, file=sys.stderr)
        if report:
            print('; '.join(report), file=sys.stderr)
        return 1
    summary = f'check_stacks: ok: {total} samples, {len(stacks)} stacks'
    print('; '.join([summary] + report))
    return 0


if __name__ == '__main__':
    sys.exit(main())
