#!/usr/bin/env python3
"""usage: dump_speedscope.py FILE.json   (- for standard input)

Prints the names of a speedscope file's profiles, one a line. A file that
is not a speedscope document exits 1 naming it and what is missing."""
import json
import sys

path = sys.argv[1]
doc = json.load(sys.stdin if path == '-' else open(path))
if not isinstance(doc, dict) or not isinstance(doc.get('profiles'), list):
    print(f'dump_speedscope: error: {path}: no "profiles" list', file=sys.stderr)
    sys.exit(1)
for profile in doc['profiles']:
    print(profile['name'])
