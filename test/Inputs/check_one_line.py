#!/usr/bin/env python3
"""usage: check_one_line.py FILE...

Checks that each FILE is exactly one line of printable ASCII (a message
on stderr, say); prints 'one line each: N files'. Otherwise exits 1 naming
each file that is not, and why."""
import sys

bad = []
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    newlines = data.count(b'\n')
    if newlines != 1 or not data.endswith(b'\n'):
        bad.append(f'{path}: {newlines} newlines, expected one, at the end')
    raw = [b for b in data if (b < 32 and b != 10) or b > 126]
    if raw:
        bad.append(f'{path}: byte {raw[0]:#04x} is not printable ASCII')
for line in bad:
    print(f'check_one_line: error: {line}', file=sys.stderr)
if bad:
    sys.exit(1)
print(f'one line each: {len(sys.argv) - 1} files')
