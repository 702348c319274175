#!/usr/bin/env python3
"""usage: check_listing.py DIR PID_FILE NAME...

Checks that DIR holds exactly the files NAME..., where {pid} in a NAME
stands for the pid written in PID_FILE; prints 'listing ok'. Otherwise
exits 1 naming the files missing and the files not expected."""
import os
import sys

directory, pid_file, names = sys.argv[1], sys.argv[2], sys.argv[3:]
pid = open(pid_file).read().strip()
expected = {n.replace('{pid}', pid) for n in names}
found = set(os.listdir(directory))
if found != expected:
    print(f'check_listing: error: {directory}: missing {sorted(expected - found)}, '
          f'not expected {sorted(found - expected)}', file=sys.stderr)
    sys.exit(1)
print('listing ok')
