#!/usr/bin/env python3
"""usage: wait_for_file.py PATH SECONDS

Waits until PATH exists (polling every 50 ms, SECONDS at most), gives its
writer 100 ms more to finish, then prints its contents. A file that does
not appear in time exits 1 with a message on stderr naming it.
"""
import os
import sys
import time

path, seconds = sys.argv[1], float(sys.argv[2])
deadline = time.monotonic() + seconds
while not os.path.exists(path):
    if time.monotonic() > deadline:
        print(f'wait_for_file: error: {path} did not appear within {seconds:g} s',
              file=sys.stderr)
        sys.exit(1)
    time.sleep(0.05)
time.sleep(0.1)
with open(path) as f:
    print(f.read())
