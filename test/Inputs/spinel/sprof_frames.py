#!/usr/bin/env python3
"""Print a .sprof profile's frames one per line, for FileCheck.

usage: sprof_frames.py PROFILE.sprof [--expect-kind 'C_GLOB=KIND' ...] [--stacks]

Prints, sorted by C name:
  frame NAME | C_NAME | KIND | FILE | LINE
then `kind KIND N%` for each kind: the share of samples (by count) whose
stack holds at least one frame of that kind. With --stacks, also every
sample as `stack name:kind;name:kind;... COUNT`.

--expect-kind 'sp_gc_*=gc' fails (exit 1) when a frame whose C name matches
the glob (`*` only) has another kind, or when no frame matches at all.
Exit status 2 for an unreadable or malformed profile.
"""
import argparse
import json
import re
import sys


def glob(text):
    return re.compile('^' + '.*'.join(re.escape(p) for p in text.split('*')) + '$')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('profile')
    ap.add_argument('--expect-kind', action='append', default=[])
    ap.add_argument('--stacks', action='store_true')
    args = ap.parse_args()
    try:
        with open(args.profile, encoding='utf-8') as f:
            prof = json.load(f)
        frames = prof['frames']
        samples = prof['samples']
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f'sprof_frames: {args.profile}: {e}', file=sys.stderr)
        return 2

    for fr in sorted(frames, key=lambda fr: (fr['c_name'], fr['name'])):
        print(f"frame {fr['name']} | {fr['c_name']} | {fr['kind']} | {fr['file']} | {fr['line']}")

    total = sum(s['count'] for s in samples)
    kinds = sorted({fr['kind'] for fr in frames})
    for kind in kinds:
        n = sum(s['count'] for s in samples
                if any(frames[i]['kind'] == kind for i in s['stack']))
        print(f'kind {kind} {100.0 * n / total if total else 0.0:.1f}%')
    if args.stacks:
        for s in samples:
            names = ';'.join(f"{frames[i]['name']}:{frames[i]['kind']}" for i in s['stack'])
            print(f"stack {names} {s['count']}")

    bad = []
    for rule in args.expect_kind:
        pat, _, kind = rule.rpartition('=')
        if not pat or not kind:
            print(f"sprof_frames: bad --expect-kind '{rule}'", file=sys.stderr)
            return 2
        rx = glob(pat)
        matched = [fr for fr in frames if rx.match(fr['c_name'])]
        if not matched:
            bad.append(f'no frame has a C name matching {pat}')
        bad += [f"{fr['c_name']} ({fr['name']}) is kind {fr['kind']}, want {kind}"
                for fr in matched if fr['kind'] != kind]
    if bad:
        print(f'sprof_frames: {args.profile}: FAILED', file=sys.stderr)
        for b in bad:
            print(f'  {b}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
