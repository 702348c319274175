#!/usr/bin/env python3
"""Check a real Spinel program's profile against plugin/RuntimeNames.tsv.

usage: runtime_names_check.py TABLE.tsv SP_RUNTIME.h PROFILE.sprof...

Fails (exit 1, one line per problem) when a frame of a helper that
Spinel's runtime header defines is neither in the table (mapped, or "-":
deliberately kept under its C name), or is mapped but not shown under its
Ruby name; or when a Ruby frame (kind user or block) of the program has no
.rb location. Prints one summary line per profile otherwise.
"""
import json
import re
import sys


def header_helpers(path):
    text = re.sub(r'__attribute__\(\([^)]*\)\)', '', open(path, encoding='utf-8').read())
    return set(re.findall(r'^[A-Za-z_][^;(=\n]*[ *](sp_[A-Za-z0-9_]+)\(', text, re.M))


def table(path):
    names = {}
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if line and not line.startswith('#'):
            c_name, ruby = line.split('\t')
            names[c_name] = ruby
    return names


def is_gc(c_name):
    return c_name.startswith('sp_gc_') or c_name.endswith('_gc_scan') or c_name == 'sp_str_sweep'


def main():
    names, helpers = table(sys.argv[1]), header_helpers(sys.argv[2])
    problems = []
    for path in sys.argv[3:]:
        frames = json.load(open(path, encoding='utf-8'))['frames']
        mapped = 0
        for f in frames:
            c_name = f['c_name']
            if f['kind'] == 'runtime' and c_name in helpers and not is_gc(c_name):
                if c_name not in names:
                    problems.append(f'{path}: {c_name} is neither mapped nor listed in the table')
                elif names[c_name] != '-' and f['name'] != names[c_name]:
                    problems.append(f'{path}: {c_name} shows as {f["name"]}, not {names[c_name]}')
                else:
                    mapped += names[c_name] != '-'
            if f['kind'] in ('user', 'block') and not f['file'].endswith('.rb'):
                problems.append(f'{path}: {f["name"]} ({c_name}) has no .rb location: {f["file"]}')
        print(f'{path}: ok, {mapped} helpers by Ruby name')
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
