#!/usr/bin/env python3
"""Check how frame names with awkward bytes come out in a profile.

usage: check_names.py NAMES FOLDED

NAMES holds one frame name per line, hex-encoded bytes (as the test program
printed them), root first; the program's stack is exactly these frames
while it burns. Checks that the folded file holds that stack with the names
escaped as docs/formats.md says (% ; LF CR as %25 %3B %0A %0D, all else raw
bytes), that every other stack is a sample taken while the frames were
being pushed (the first k names, escaped alike) or outside every frame
(`[unknown]`), each perhaps under a `[native] ...` leaf, and that the .sprof
lists each name decoded with invalid UTF-8 as U+FFFD.
Prints 'names ok' or fails with exit status 1.
"""
import json
import sys

names = [bytes.fromhex(l) for l in open(sys.argv[1]).read().split()]
folded = sys.argv[2]
sprof = folded[:-len('.folded')] + '.sprof'


def escape(b):
    return (b.replace(b'%', b'%25').replace(b';', b'%3B')
            .replace(b'\n', b'%0A').replace(b'\r', b'%0D'))


escaped = [escape(n) for n in names]
want = b';'.join(escaped)
lines = open(folded, 'rb').read().split(b'\n')[:-1]
stacks = [l.rsplit(b' ', 1)[0] for l in lines]
if want not in stacks:
    sys.exit(f'check_names: stack {want!r} not in {stacks!r}')
for stack in stacks:
    parts = stack.split(b';')
    if parts[-1].startswith(b'[native] '):
        parts.pop()
    if parts != [b'[unknown]'] and parts != escaped[:len(parts)]:
        sys.exit(f'check_names: stack {stack!r} is not a prefix of {want!r}')
frames = [f['name'] for f in json.load(open(sprof, encoding='utf-8'))['frames']]
for n in names:
    if n.decode('utf-8', 'replace') not in frames:
        sys.exit(f'check_names: {n!r} not among {frames!r}')
print('names ok')
