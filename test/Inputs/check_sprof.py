#!/usr/bin/env python3
"""Validate a spinelprof profile pair (folded + .sprof) against
docs/formats.md and print facts about it for FileCheck.

usage: check_sprof.py FOLDED [--sprof PATH]

Fails (exit 1, message on stderr) on any violation: a missing or mistyped
key, a folded line that does not parse, sample counts that do not add up,
stack indexes out of range, folded.bytes not the folded file's size, a
frame listed twice or never used, a "timeline" entry whose columns
differ in length or whose sample indexes are not its thread's. On success prints, one per line:
  ok: N samples, N stacks, N frames, N threads
  pid: N
  command: ["ARG", ...]
  thread: TID NAME            (each, in file order)
  frame: KIND NAME|C_NAME|FILE|LINE   (each, in file order; NAME JSON-escaped)
  sample: TID COUNT A;B;C     (each, in file order, names JSON-escaped)
  field: KEY VALUE            (each scalar metadata key)
"""
import argparse
import json
import os
import re
import sys


def fail(msg):
    print(f'check_sprof: error: {msg}', file=sys.stderr)
    sys.exit(1)


REQUIRED = {
    'format': str, 'version': int, 'command': list, 'pid': int,
    'start_time': str, 'start_time_ns': int, 'duration_ns': int,
    'cpu_time_ns': int, 'mode': str, 'timer': str, 'requested_hz': int,
    'achieved_hz': (int, float), 'sample_count': int, 'dropped': int,
    'truncated': int, 'folded': dict, 'frames': list, 'threads': list,
    'samples': list, 'timeline': list,
}
KINDS = {'user', 'block', 'runtime', 'gc', 'synthetic'}


TIMELINE_KEYS = ('thread', 'bucket_ns', 'merged', 'missing', 'time_ns',
                 'sample', 'count', 'weight_ns')


def check_timeline(sprof, p, tids):
    """The "timeline" list: one entry per sampled thread at most, in
    ascending order, its columns of equal length, every time delta >= 0,
    every "sample" index one of that thread's samples."""
    previous = None
    for e in p['timeline']:
        if list(e) != list(TIMELINE_KEYS):
            fail(f'{sprof}: timeline entry keys {list(e)}')
        tid = e['thread']
        if tid not in tids or (previous is not None and tid <= previous):
            fail(f'{sprof}: timeline thread {tid} not a sampled thread in order')
        previous = tid
        n = len(e['time_ns'])
        for k in TIMELINE_KEYS[4:]:
            if len(e[k]) != n or not all(isinstance(v, int) and v >= 0 for v in e[k]):
                fail(f'{sprof}: timeline of {tid}: bad column {k}')
        for i in e['sample']:
            if i >= len(p['samples']) or p['samples'][i]['thread'] != tid:
                fail(f'{sprof}: timeline of {tid}: sample index {i} not its own')


def check_folded(path):
    """The folded file: "stack count" lines, no stack twice, sorted by
    count, then stack text. Returns its bytes and its counts' sum."""
    raw = open(path, 'rb').read()
    folded_total = 0
    seen = set()
    for n, line in enumerate(raw.split(b'\n')[:-1] if raw else [], 1):
        m = re.fullmatch(rb'(.+) ([1-9][0-9]*)', line)
        if not m:
            fail(f'{path}:{n}: not "stack count": {line!r}')
        if m.group(1) in seen:
            fail(f'{path}:{n}: stack repeated')
        seen.add(m.group(1))
        folded_total += int(m.group(2))
    if raw and not raw.endswith(b'\n'):
        fail(f'{path}: last line not terminated')
    counts = [int(l.rsplit(b' ', 1)[1]) for l in raw.split(b'\n')[:-1]] if raw else []
    lines = [l.rsplit(b' ', 1) for l in raw.split(b'\n')[:-1]] if raw else []
    keys = [(-int(c), s) for s, c in lines]
    if keys != sorted(keys):
        fail(f'{path}: lines not sorted by count, then stack text')

    return raw, folded_total


def load_sprof(sprof, folded, raw):
    """The .sprof's JSON, its keys of the right types and its folded object
    naming FOLDED, RAW its bytes."""
    text = open(sprof, 'rb').read().decode('utf-8')  # must be UTF-8
    try:
        p = json.loads(text)
    except ValueError as e:
        fail(f'{sprof}: invalid JSON: {e}')
    for key, ty in REQUIRED.items():
        if key not in p:
            fail(f'{sprof}: missing key {key}')
        if not isinstance(p[key], ty) or isinstance(p[key], bool):
            fail(f'{sprof}: key {key} has type {type(p[key]).__name__}')
    if p['format'] != 'spinelprof' or p['version'] != 4 or p['mode'] not in ('cpu', 'wall'):
        fail(f'{sprof}: wrong format/version/mode')
    if not re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ', p['start_time']):
        fail(f'{sprof}: start_time {p["start_time"]!r}')
    if not all(isinstance(a, str) for a in p['command']) or not p['command']:
        fail(f'{sprof}: command is not a list of strings')
    f = p['folded']
    if f.get('unit') not in ('samples', 'microseconds') or not isinstance(f.get('bytes'), int) \
            or not isinstance(f.get('path'), str):
        fail(f'{sprof}: bad folded object {f}')
    if f['bytes'] != len(raw):
        fail(f'{sprof}: folded.bytes {f["bytes"]} but the folded file has {len(raw)}')
    if os.path.abspath(f['path']) != os.path.abspath(folded):
        fail(f'{sprof}: folded.path {f["path"]} is not {folded}')
    return p


def check_frames(sprof, p):
    """Each frame's keys and kind; a native address frame's fields."""
    frames = p['frames']
    for fr in frames:
        for k, ty in (('name', str), ('c_name', str), ('kind', str), ('file', str), ('line', int)):
            if not isinstance(fr.get(k), ty):
                fail(f'{sprof}: frame {fr} lacks {k}')
        if fr['kind'] not in KINDS:
            fail(f'{sprof}: frame kind {fr["kind"]}')
        # Version 3: an address no symbol named, for the tool to name.
        if 'object' in fr and not (fr['name'] == '[native] ' + fr['file']
                                   and isinstance(fr.get('address'), int)
                                   and re.fullmatch(r'[0-9a-f]*', fr.get('build_id', 'x'))):
            fail(f'{sprof}: native address frame {fr}')


def check_samples(sprof, p):
    """Each sample's keys and stack indexes, no (thread, stack) twice, every
    frame used. Returns the counts' sum and the sampled threads."""
    frames = p['frames']
    used = set()
    total = 0
    tids = set()
    seen_samples = set()
    for s in p['samples']:
        if not (isinstance(s.get('thread'), int) and isinstance(s.get('stack'), list)
                and isinstance(s.get('count'), int) and isinstance(s.get('weight_ns'), int)):
            fail(f'{sprof}: bad sample {s}')
        if s['count'] < 1 or s['weight_ns'] < 0 or not s['stack']:
            fail(f'{sprof}: bad sample {s}')
        for i in s['stack']:
            if not isinstance(i, int) or not 0 <= i < len(frames):
                fail(f'{sprof}: stack index {i} out of range')
            used.add(i)
        key = (s['thread'], tuple(s['stack']))
        if key in seen_samples:
            fail(f'{sprof}: (thread, stack) {key} repeated')
        seen_samples.add(key)
        total += s['count']
        tids.add(s['thread'])
    if used != set(range(len(frames))):
        fail(f'{sprof}: frames listed but not used: {set(range(len(frames))) - used}')
    return total, tids


def check_totals(sprof, p, folded_total, total, tids):
    """The folded file, sample_count and the threads add up to the samples."""
    f = p['folded']
    if f['unit'] == 'microseconds':
        # The folded file is in microseconds: each line the rounded sum of
        # its stacks' weights; lines rounding to 0 are left out.
        weight_us = sum(s['weight_ns'] for s in p['samples']) / 1000
        if abs(folded_total - weight_us) > 1 + 0.5 * len(p['samples']):
            fail(f'{sprof}: folded adds to {folded_total} us, weights to {weight_us:.0f}')
        folded_total = total
    if total != p['sample_count'] or total != folded_total:
        fail(f'{sprof}: sample_count {p["sample_count"]}, samples add to {total}, folded to {folded_total}')
    thread_tids = [t.get('tid') for t in p['threads']]
    if sorted(thread_tids) != sorted(tids) or not all(isinstance(t.get('name'), str) for t in p['threads']):
        fail(f'{sprof}: threads {thread_tids} are not the sampled threads {sorted(tids)}')
    for t in p['threads']:
        mine = [s for s in p['samples'] if s['thread'] == t['tid']]
        if t.get('samples') != sum(s['count'] for s in mine) or \
                t.get('weight_ns') != sum(s['weight_ns'] for s in mine):
            fail(f'{sprof}: thread {t} does not add up its samples')


def print_facts(p, total, tids):
    """The facts FileCheck reads (the module's docstring)."""
    frames = p['frames']
    print(f'ok: {total} samples, {len(p["samples"])} stacks, {len(frames)} frames, {len(tids)} threads')
    print(f'pid: {p["pid"]}')
    print(f'command: {json.dumps(p["command"])}')
    for t in p['threads']:
        print(f'thread: {t["tid"]} {t["name"]}')
    for fr in frames:
        print(f'frame: {fr["kind"]} {json.dumps(fr["name"])[1:-1]}|{fr["c_name"]}|{fr["file"]}|{fr["line"]}')
    for s in p['samples']:
        names = ';'.join(json.dumps(frames[i]['name'])[1:-1] for i in s['stack'])
        print(f'sample: {s["thread"]} {s["count"]} {names}')
    for k, v in p.items():
        if not isinstance(v, (list, dict)):
            print(f'field: {k} {v}')



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folded')
    ap.add_argument('--sprof')
    args = ap.parse_args()
    sprof = args.sprof or (args.folded[:-len('.folded')] if args.folded.endswith('.folded')
                           else args.folded) + '.sprof'
    raw, folded_total = check_folded(args.folded)
    p = load_sprof(sprof, args.folded, raw)
    check_frames(sprof, p)
    total, tids = check_samples(sprof, p)
    check_totals(sprof, p, folded_total, total, tids)
    check_timeline(sprof, p, tids)
    print_facts(p, total, tids)


if __name__ == '__main__':
    main()
