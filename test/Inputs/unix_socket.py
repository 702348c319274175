#!/usr/bin/env python3
"""usage: unix_socket.py PATH

Creates a Unix-domain socket file at PATH (bound, never listening): a
path that exists but cannot be opened for writing."""
import socket
import sys

try:
    socket.socket(socket.AF_UNIX).bind(sys.argv[1])
except OSError as e:
    print(f'unix_socket: error: cannot bind {sys.argv[1]}: {e}', file=sys.stderr)
    sys.exit(1)
