#!/usr/bin/env python3
"""Kill a program while the copy that writes its profile for SIGTERM runs.

usage: fifo_reader.py --stall FIFO OUT -- kill_during_copy.py COMMAND [ARGS...]
  COMMAND must write its profile to FIFO and print 'ready' on stdout once
  it has samples. Under fifo_reader.py --stall the FIFO has a reader that
  never reads, so the copy (writeInCopy) waits on it for up to 3 s. The
  script sends SIGTERM, finds the copy (a child of COMMAND), waits until
  it sleeps (blocked on the FIFO: it has run its start, PR_SET_PDEATHSIG
  included; a copy stopped before it first ran has none, and under load
  one is seen in /proc well before it runs), stops it (SIGSTOP: a copy
  that hangs), kills COMMAND with SIGKILL, and prints whether the
  copy ended within 5 s ('copy ended with its parent') or not ('copy
  outlived its parent', after which it is killed here). Exits 1 on any
  other outcome, saying which.
"""
import os
import signal
import subprocess
import sys
import time


def children_of(pid):
    """The pids whose parent is pid, from /proc/*/stat."""
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                fields = f.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def state_of(pid):
    """The process's state letter, or None when it is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0]
    except OSError:
        return None


def wait_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.005)
    return None


def fail(message, proc):
    print(message, flush=True)
    proc.kill()
    proc.wait()
    sys.exit(1)


def main():
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
    if proc.stdout.readline().strip() != b'ready':
        fail('the program did not print ready', proc)
    proc.send_signal(signal.SIGTERM)
    copies = wait_until(lambda: children_of(proc.pid), 10)
    if not copies:
        fail('no copy was made for SIGTERM', proc)
    copy = copies[0]
    if wait_until(lambda: state_of(copy) in ('S', 'D', None, 'Z'), 10) is None:
        fail('the copy did not block on the FIFO', proc)
    os.kill(copy, signal.SIGSTOP)
    if wait_until(lambda: state_of(copy) in ('T', 't', None, 'Z'), 5) is None:
        fail('the copy did not stop', proc)
    if state_of(copy) not in ('T', 't'):
        fail('the copy had ended before it was stopped (profile too small?)',
             proc)
    proc.kill()
    proc.wait()
    if wait_until(lambda: state_of(copy) in (None, 'Z', 'X'), 5):
        print('copy ended with its parent', flush=True)
    else:
        print('copy outlived its parent', flush=True)
        os.kill(copy, signal.SIGKILL)


main()
