#!/usr/bin/env python3
"""Measured accuracy: spinelprof and gprof against a program's own truth.

usage: run.py [--quick] [--seconds S] [--build DIR] [--hz N]

Builds accuracy.c twice: with the spinelprof plugin and runtime (clang), and
with `gcc -pg` for gprof. Runs each single-threaded and with 4 threads for
S CPU-seconds per thread (20; --quick: 1, for CI), and prints, per stack,
the true share of CPU (the program's own thread-CPU-clock measurements),
spinelprof's share (cpu mode, sample counts) and gprof's share (its call
graph: self + children, a callee's time split among callers by call
counts), then the maximum absolute error in percentage points. With
threads, spinelprof is compared per thread (each thread's stacks as shares
of that thread); gprof has no threads, so it is compared on the whole
process. Exit status 0 (figures, not a test).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KINDS = ['sp_phase_a', 'sp_phase_b', 'sp_phase_c', 'sp_light', 'sp_heavy']
STACKS = ['<main>;' + k for k in KINDS] + ['<main>']


def run(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def read_truth(path):
    """{thread name: {stack: ns}}"""
    truth = {}
    for line in open(path):
        _, thread, stack, ns = line.split()
        truth.setdefault(thread, {})[stack] = int(ns)
    return truth


def shares(d):
    total = sum(d.values()) or 1
    return {k: 100.0 * d.get(k, 0) / total for k in STACKS}


def key_of(c_names):
    """The stack a sample belongs to: the first of the five kinds on it."""
    for c in c_names:
        if c in KINDS:
            return '<main>;' + c
    return '<main>'


def spinelprof_shares(sprof):
    p = json.load(open(sprof))
    names = {t['tid']: t['name'] for t in p['threads']}
    per = {}
    for s in p['samples']:
        k = key_of([p['frames'][i]['c_name'] for i in s['stack']])
        d = per.setdefault(names.get(s['thread'], str(s['thread'])), {})
        d[k] = d.get(k, 0) + s['count']
    return per, p


def gprof_shares(binary, gmon):
    out = subprocess.run(['gprof', '-b', '-q', binary, gmon], check=True,
                         capture_output=True, text=True).stdout
    total = None
    m = re.search(r'for [0-9.]+% of ([0-9.]+) seconds', out)
    if m:
        total = float(m.group(1))
    got = {}
    # Primary lines: [index] %time self children called name
    for line in out.splitlines():
        m = re.match(r'\[\d+\]\s+[0-9.]+\s+([0-9.]+)\s+([0-9.]+)\s+(?:[0-9+/]+\s+)?(\S+)', line)
        if not m:
            continue
        name = m.group(3).split('.')[0]
        if name in KINDS:
            got['<main>;' + name] = got.get('<main>;' + name, 0.0) + float(m.group(1)) + float(m.group(2))
    if not total:
        total = sum(got.values()) or 1
    got['<main>'] = max(0.0, total - sum(got.values()))
    return shares(got)


def table(title, truth, rows):
    """rows: [(label, {stack: share})]; prints and returns max errors."""
    print(f'\n{title}')
    head = f'  {"stack":24} {"truth %":>8}'
    for label, _ in rows:
        head += f' {label + " %":>13} {"err pp":>7}'
    print(head)
    worst = [0.0] * len(rows)
    for k in STACKS:
        line = f'  {k:24} {truth[k]:8.2f}'
        for i, (_, s) in enumerate(rows):
            err = s[k] - truth[k]
            worst[i] = max(worst[i], abs(err))
            line += f' {s[k]:13.2f} {err:+7.2f}'
        print(line)
    print('  ' + 'max |error|'.ljust(33) + ''.join(f' {label}: {w:.2f} pp' for (label, _), w in zip(rows, worst)))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--quick', action='store_true', help='1 s per run, for CI')
    ap.add_argument('--seconds', type=float, default=None)
    ap.add_argument('--hz', type=int, default=1000)
    ap.add_argument('--build', default=os.environ.get('SPINELPROF_BUILD', os.path.join(ROOT, 'build')))
    ap.add_argument('--clang', default=os.environ.get('CLANG'),
                    help="the clang the plugin was built for (default: the build's SPINELPROF_CLANG)")
    ap.add_argument('--no-gprof', action='store_true')
    args = ap.parse_args()
    seconds = args.seconds or (1.0 if args.quick else 20.0)
    plugin = os.path.join(args.build, 'lib', 'SpinelProf.so')
    rtlib = os.path.join(args.build, 'lib', 'libspinelprof_rt.a')
    for f in (plugin, rtlib):
        if not os.path.exists(f):
            sys.exit(f'run.py: {f} not found (build first, or --build DIR)')
    if not args.clang:
        args.clang = 'clang'
        cache = os.path.join(args.build, 'CMakeCache.txt')
        if os.path.exists(cache):
            for line in open(cache):
                if line.startswith('SPINELPROF_CLANG:'):
                    args.clang = line.split('=', 1)[1].strip()
    src = os.path.join(HERE, 'accuracy.c')
    work = tempfile.mkdtemp(prefix='spinelprof-accuracy-')
    prof_bin = os.path.join(work, 'acc-prof')
    run([args.clang, '-O2', '-pthread', f'-fpass-plugin={plugin}',
         '-I' + os.path.join(ROOT, 'include'), src, rtlib, '-o', prof_bin])
    use_gprof = not args.no_gprof and shutil.which('gprof') and shutil.which('gcc')
    if use_gprof:
        pg_bin = os.path.join(work, 'acc-pg')
        run(['gcc', '-O2', '-pg', '-pthread', src, '-o', pg_bin])

    print(f'accuracy: {seconds:g} CPU-s per thread, spinelprof cpu mode at {args.hz} Hz '
          f'(sample counts), gprof {"call graph" if use_gprof else "not run"}')
    summary = []
    for threads in (1, 4):
        env = dict(os.environ, SPINEL_PROFILE=os.path.join(work, f'p{threads}.folded'),
                   SPINEL_PROFILE_HZ=str(args.hz), SPINEL_PROFILE_QUIET='1')
        truth_path = os.path.join(work, f'truth{threads}.txt')
        run([prof_bin, str(seconds), str(threads), truth_path], env=env)
        truth = read_truth(truth_path)
        per, p = spinelprof_shares(os.path.join(work, f'p{threads}.sprof'))
        gp = None
        if use_gprof:
            pg_truth_path = os.path.join(work, f'pgtruth{threads}.txt')
            run([pg_bin, str(seconds), str(threads), pg_truth_path], cwd=work)
            gp = gprof_shares(pg_bin, os.path.join(work, 'gmon.out'))
            pg_truth = read_truth(pg_truth_path)
        print(f'\n== {threads} thread{"s" if threads > 1 else ""}: {p["sample_count"]} samples, '
              f'{p["achieved_hz"]} Hz achieved, sampler {p.get("sampler", "?")}')
        worst_prof = 0.0
        for name in sorted(truth):
            rows = [('spinelprof', shares(per.get(name, {})))]
            w = table(f'thread {name}', shares(truth[name]), rows)
            worst_prof = max(worst_prof, w[0])
        worst_gprof = None
        if gp:
            whole = {}
            for d in pg_truth.values():
                for k, v in d.items():
                    whole[k] = whole.get(k, 0) + v
            worst_gprof = table('whole process, gprof run', shares(whole), [('gprof', gp)])[0]
        summary.append((threads, worst_prof, worst_gprof))
    print('\nsummary: max absolute error per stack (percentage points; target <= 0.5)')
    for threads, wp, wg in summary:
        g = f'{wg:.2f}' if wg is not None else 'n/a'
        print(f'  {threads} thread{"s" if threads > 1 else " "}: spinelprof {wp:.2f} '
              f'(worst thread), gprof {g} (whole process)')
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
