#!/usr/bin/env python3
"""Run a command while a FIFO has a reader, for profiles written to a FIFO.

usage: fifo_reader.py [--stall] [--timeout SECONDS] FIFO OUT -- COMMAND [ARGS...]
  Opens FIFO for reading (without waiting for a writer), then runs COMMAND
  with inherited stdin, stdout and stderr, and closes the FIFO after the
  command has ended. Without --stall, everything written into the FIFO
  meanwhile goes to OUT. With --stall, the FIFO's buffer is shrunk to one
  page and nothing is read (a reader that never keeps up); OUT stays empty.
  Exits with the command's exit status, or prints 'TIMEOUT' and exits 124
  when the command still ran after SECONDS (default 20; then it is killed).
"""
import argparse
import fcntl
import os
import select
import subprocess
import sys
import threading

F_SETPIPE_SZ = 1031


def drain(fd, done, chunks):
    """Reads until the command has ended and nothing more is there."""
    while True:
        finished = done.is_set()  # Before the read: then it saw every write.
        select.select([fd], [], [], 0.05)
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            data = None
        if data:
            chunks.append(data)
        elif finished:
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--stall', action='store_true')
    parser.add_argument('--timeout', type=float, default=20)
    parser.add_argument('fifo')
    parser.add_argument('out')
    parser.add_argument('command', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ['--'] else args.command

    fd = os.open(args.fifo, os.O_RDONLY | os.O_NONBLOCK)
    done, chunks = threading.Event(), []
    reader = None
    if args.stall:
        fcntl.fcntl(fd, F_SETPIPE_SZ, 4096)
    else:
        reader = threading.Thread(target=drain, args=(fd, done, chunks))
        reader.start()
    proc = subprocess.Popen(command)
    try:
        status = proc.wait(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        print('TIMEOUT', flush=True)
        status = 124
    done.set()
    if reader:
        reader.join()
    os.close(fd)
    with open(args.out, 'wb') as out:
        out.write(b''.join(chunks))
    sys.exit(status if status >= 0 else 128 - status)


main()
