#!/usr/bin/env python3
"""Run a profiled program whose profile goes to a (nearly) full filesystem.

usage: full_fs.py DIR FREE_BYTES PROGRAM [ARGS...]

Mounts a 64 KiB tmpfs on DIR/full, fills it until FREE_BYTES or fewer are
free, runs PROGRAM through exit_status.py --compare with the profile at
DIR/full/p.folded, prints its output, then its stderr (prefixed 'stderr: ')
and the files left on the filesystem (prefixed 'left: '), and unmounts
whatever happens. Needs root (mount).
"""
import os
import subprocess
import sys

inputs = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Inputs')
directory, free, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
mnt = os.path.join(directory, 'full')
os.makedirs(mnt, exist_ok=True)
subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], check=True)
try:
    with open(os.path.join(mnt, 'filler'), 'wb', buffering=0) as f:
        while True:
            st = os.statvfs(mnt)
            left = st.f_bavail * st.f_frsize
            if left <= free:
                break
            try:
                f.write(b'x' * min(512, left - free if left - free >= 1 else 1))
            except OSError:
                break
    p = subprocess.run([sys.executable, os.path.join(inputs, 'exit_status.py'), '--compare',
                        os.path.join(mnt, 'p.folded')] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sys.stdout.write(p.stdout)
    for line in p.stderr.splitlines():
        print('stderr: ' + line)
    for name in sorted(os.listdir(mnt)):
        print('left: ' + name)
finally:
    subprocess.run(['umount', mnt], check=True)
