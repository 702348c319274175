#!/usr/bin/env python3
"""Runs a checker on the profile a fork child wrote under its own pid.

usage: child_profile.py [--show] PID_FILE TEMPLATE CHECKER [ARGS...]

The child's pid is the second word of PID_FILE (the program prints a line
such as 'child 1234 ...'). TEMPLATE is the profile's path with {pid} where
the pid goes. With --show, prints 'pid: PID' and the profile's contents
first. Then runs 'python CHECKER PROFILE ARGS...' and exits with its
status. A pid or profile that is not there exits 1 naming the file.
"""
import subprocess
import sys


def fail(msg):
    print(f'child_profile: error: {msg}', file=sys.stderr)
    sys.exit(1)


args = sys.argv[1:]
show = bool(args) and args[0] == '--show'
if show:
    args = args[1:]
if len(args) < 3:
    fail('usage: child_profile.py [--show] PID_FILE TEMPLATE CHECKER [ARGS...]')
pid_file, template, checker = args[:3]
words = open(pid_file).read().split()
if len(words) < 2 or not words[1].isdigit():
    fail(f'{pid_file}: no pid as its second word: {" ".join(words[:4])!r}')
pid = words[1]
profile = template.replace('{pid}', pid)
try:
    contents = open(profile).read()
except OSError as e:
    fail(f'the child\'s profile {profile}: {e.strerror}')
if show:
    print('pid:', pid)
    sys.stdout.write(contents)
    sys.stdout.flush()
sys.exit(subprocess.call([sys.executable, checker, profile] + args[3:]))
