#!/usr/bin/env python3
"""Ground-truth accuracy: spinelprof (and gperftools) against programs that
time every method from outside.

usage: run.py [--build DIR] [--hz N] [--seconds S] [--runs N] [--case NAME]...
              [--quick] [--no-gperftools] [--env KEY=VAL]... [--by weight|count]
              [--keep DIR] [--list]

Each case in cases/ is a program in Spinel's C shape that writes its own
truth (per row: a method's self time, measured by its caller with the
thread CPU clock, or CLOCK_MONOTONIC in wall mode; see cases/truth.h). It is
built twice: with `spinel-prof cc` from --build, and with plain clang
-lprofiler (gperftools). Each is run --runs times; per run the largest
absolute difference between a row's true share and its measured share is
the max error (percentage points). Printed per case: the rows of the median
run, the median max error, the samples delivered, and what a perfect
sampler (that many samples drawn at random with the true shares; median of
--trials) would get. Exit status 0 whatever the errors; 1 if a program
fails to build or run; 2 on bad usage. See README.md.
"""
import argparse
import bisect
import json
import math
import os
import platform
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES_DIR = os.path.join(HERE, 'cases')
UNMATCHED = '(unmatched)'


class Case:
    """A program, its clock (cpu or wall) and its arguments (from --hz)."""

    def __init__(self, name, source, about, mode='cpu', args=lambda hz: []):
        self.name, self.source, self.about = name, source, about
        self.mode, self.args = mode, args


CASES = [
    Case('methods', 'methods.c', 'four methods of 0.1-1 ms; a callee called 20x cheaply and 5x dearly'),
    Case('syscalls', 'syscalls.c', 'compute; 40 write()s to /dev/null; longer compute; 60 getppid syscalls'),
    Case('native-leaf', 'native_leaf.c', '1000 memchr calls (8 KiB) with a few ns of own code between, each alone, and the glue around the calls'),
    Case('wall-short', 'wall.c', 'wall mode: 0.14 ms compute, 0.7 ms nanosleep', 'wall',
         lambda hz: ['140', '700']),
    Case('wall-5ms', 'wall.c', 'wall mode: 5 ms compute, 5 ms nanosleep', 'wall',
         lambda hz: ['5000', '5000']),
    Case('threads', 'threads.c', '6 threads on the cores there are, each alternating two methods'),
    Case('fibers', 'fibers.c', 'methods inside two ucontext fibers and on the main stack'),
    Case('periodic-0.5x', 'periodic.c', 'wakes every 0.5 sampling periods, runs A then B',
         args=lambda hz: [f'{0.5e6 / hz:g}']),
    Case('periodic-1x', 'periodic.c', 'wakes every sampling period, runs A then B',
         args=lambda hz: [f'{1e6 / hz:g}']),
    Case('periodic-4x', 'periodic.c', 'wakes every 4 sampling periods, runs A then B',
         args=lambda hz: [f'{4e6 / hz:g}']),
    Case('periodic-spin-1x', 'periodic.c', 'spins to a deadline every sampling period, runs A then B',
         args=lambda hz: [f'{1e6 / hz:g}', 'spin']),
]


def fail(msg):
    print(f'run.py: {msg}', file=sys.stderr)
    sys.exit(1)


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ----------------------------------------------------------------- machine


def build_and_run(work, clang, name):
    """Builds HERE/NAME.c into WORK and returns what it prints (a machine fact)."""
    binary = os.path.join(work, name)
    if sh([clang, '-O2', os.path.join(HERE, name + '.c'), '-o', binary]).returncode != 0:
        return f'{name}.c did not build'
    return sh([binary]).stdout.strip()


def machine_facts(work, clang, calibration_s):
    facts = []
    model = '?'
    flags = ''
    for line in open('/proc/cpuinfo'):
        if line.startswith('model name') and model == '?':
            model = line.split(':', 1)[1].strip()
        if line.startswith('flags') and not flags:
            flags = line
    facts.append(('CPU', f'{model}, {os.cpu_count()} CPUs online'))
    facts.append(('kernel', f'{platform.release()} ({platform.machine()})'))
    virt = []
    if shutil.which('systemd-detect-virt'):
        for kind in ('vm', 'container'):
            v = sh(['systemd-detect-virt', f'--{kind}']).stdout.strip()
            if v:
                virt.append(f'systemd-detect-virt --{kind}: {v}')
    if shutil.which('dmesg'):
        m = re.search(r'Hypervisor detected: .*', sh(['dmesg']).stdout)
        if m:
            virt.append(f'dmesg: {m.group(0)}')
    for f in ('sys_vendor', 'product_name'):
        p = f'/sys/class/dmi/id/{f}'
        if os.path.exists(p):
            virt.append(f'{f}: {open(p).read().strip()}')
    if ' hypervisor' in flags:
        virt.append('cpuinfo: hypervisor flag')
    facts.append(('virtualisation', '; '.join(virt) or 'none seen'))
    cs = '/sys/devices/system/clocksource/clocksource0/current_clocksource'
    if os.path.exists(cs):
        facts.append(('clocksource', open(cs).read().strip()))
    hz = None
    for path in (f'/boot/config-{platform.release()}',):
        if os.path.exists(path):
            hz = next((l.strip() for l in open(path) if l.startswith('CONFIG_HZ=')), None)
    if not hz and os.path.exists('/proc/config.gz'):
        import gzip
        with gzip.open('/proc/config.gz', 'rt') as f:
            hz = next((l.strip() for l in f if l.startswith('CONFIG_HZ=')), None)
    measured = build_and_run(work, clang, 'tick')
    facts.append(('tick', f'{hz or "CONFIG_HZ not readable"}; measured (ITIMER_PROF asked for 10 kHz): {measured}'))
    measured = build_and_run(work, clang, 'delivery')
    facts.append(('signal delivery', f"a thread's own timer, instant to handler: {measured}"))
    cal = os.path.join(work, 'calibration')
    r = sh([clang, '-O2', os.path.join(HERE, 'calibration.c'), '-lm', '-o', cal])
    if r.returncode != 0:
        fail(f'calibration.c did not build:\n{r.stderr}')
    for line in sh([cal, f'{calibration_s:g}']).stdout.splitlines():
        f = line.split()
        uncorrected = f' (the empty interval alone: {float(f[10]):+.0f} ns)' if f[0] == 'cpu' else ''
        facts.append((f'timed call ({f[0]})',
                      f'a calibrated timed call of {f[8]} us reads {float(f[2]):+.0f} ns '
                      f'(standard error {f[4]} ns) longer than untimed{uncorrected}; empty interval '
                      f'{f[6]} ns (calibration.c, {calibration_s:g} s)'))
    facts.append(('load average', ' '.join(open('/proc/loadavg').read().split(' ')[:3])))
    return facts


# ----------------------------------------------------------------- building


def read_cache(build, key):
    cache = os.path.join(build, 'CMakeCache.txt')
    if os.path.exists(cache):
        for line in open(cache):
            if line.startswith(key + ':'):
                return line.split('=', 1)[1].strip()
    return None


def build_info(build):
    src = read_cache(build, 'CMAKE_HOME_DIRECTORY') or '?'
    rev = sh(['git', '-C', src, 'rev-parse', '--short', 'HEAD']).stdout.strip() or '?'
    dirty = sh(['git', '-C', src, 'status', '--porcelain', '--untracked-files=no']).stdout.strip()
    return f'{os.path.abspath(build)} (source {src} at {rev}{", modified" if dirty else ""})'


BUILT = set()


def build_case(case, args, work, gperftools):
    src = os.path.join(CASES_DIR, case.source)
    stem = os.path.join(work, os.path.splitext(case.source)[0])
    out = {}
    # Built once per invocation (several cases share a source), never taken
    # from an earlier invocation's --keep directory: it may be another build's.
    fresh = src not in BUILT and not args.reread
    BUILT.add(src)
    prof = stem + '-spinelprof'
    if fresh:
        r = sh([args.spinel_prof, 'cc', '-O2', '-pthread', src, '-o', prof])
        if r.returncode != 0:
            fail(f'{case.source} did not build with spinel-prof cc:\n{r.stderr}')
    out['spinelprof'] = prof
    if gperftools:
        gp = stem + '-gperftools'
        if fresh:
            r = sh([args.clang, '-O2', '-g', '-fno-omit-frame-pointer', '-no-pie', '-pthread', src,
                    '-o', gp, '-Wl,--no-as-needed', '-lprofiler', '-Wl,--as-needed'])
            if r.returncode != 0:
                fail(f'{case.source} did not build with -lprofiler:\n{r.stderr}')
        out['gperftools'] = gp
    return out


def have_gperftools(clang, work):
    probe = os.path.join(work, 'probe.c')
    open(probe, 'w').write('int main(void) { return 0; }\n')
    r = sh([clang, probe, '-o', probe + '.out', '-Wl,--no-as-needed', '-lprofiler'])
    return r.returncode == 0


# ----------------------------------------------------------------- truth


def read_truth(path):
    rows, meta = {}, {}
    for line in open(path):
        f = line.split()
        if f[0] == 'row':
            rows[f[1]] = rows.get(f[1], 0) + int(f[2])
        elif f[0] == 'meta' and len(f) == 4:  # meta NAME ROW VALUE
            meta.setdefault(f[1], []).append((f[2], float(f[3])))
        elif f[0] == 'meta':
            meta.setdefault(f[1], []).append(f[2])
    return rows, meta


def row_key(chain, leaf_is_native, rows):
    """The row of a sample: its declared frames, root first, joined with ';'
    (a native leaf above a row that has a native row goes there)."""
    key = ';'.join(chain) if chain else '<rest>'
    if leaf_is_native and key + ';[native]' in rows:
        return key + ';[native]'
    return key if key in rows else UNMATCHED


def declared_frames(rows):
    return {f for k in rows for f in k.split(';') if f not in ('<rest>', '[native]')}


# ----------------------------------------------------------------- profiles


def spinelprof_rows(sprof_path, rows, by):
    """{row: weight}, samples delivered, facts."""
    p = json.load(open(sprof_path))
    frames = p['frames']
    declared = declared_frames(rows)
    use_weight = by == 'weight' and all('weight_ns' in s for s in p['samples'])
    got = {}
    for s in p['samples']:
        names = [frames[i]['c_name'] for i in s['stack']]
        chain = [n for n in names if n in declared]
        leaf = frames[s['stack'][-1]]['name'] if s['stack'] else ''
        k = row_key(chain, leaf.startswith('[native]'), rows)
        got[k] = got.get(k, 0) + (s['weight_ns'] if use_weight else s['count'])
    facts = {k: p.get(k) for k in ('achieved_hz', 'sampler', 'timer', 'dropped')}
    facts['unit'] = 'weight_ns' if use_weight else 'count'
    return got, p['sample_count'], facts


class Symbols:
    """The executable's function symbols (a -no-pie binary: addresses are
    run-time addresses)."""

    def __init__(self, binary):
        out = sh(['nm', '-S', '--defined-only', binary]).stdout
        self.spans = []
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in 'tTwW':
                start, size = int(f[0], 16), int(f[1], 16)
                self.spans.append((start, start + size, f[3]))
        self.spans.sort()
        self.starts = [s[0] for s in self.spans]

    def name(self, pc):
        i = bisect.bisect_right(self.starts, pc) - 1
        if i >= 0 and pc < self.spans[i][1]:
            return self.spans[i][2]
        return None


def gperftools_rows(prof_path, binary, rows):
    """gperftools' CPU profile (docs/cpuprofile-fileformat): 64-bit words;
    header 0, 3, 0, period, 0; records count, depth, PCs (the first the
    interrupted PC, then return addresses); trailer 0, 1, 0."""
    data = open(prof_path, 'rb').read()
    words = struct.unpack_from(f'<{len(data) // 8}Q', data)
    if words[:3] != (0, 3, 0):
        fail(f'{prof_path}: not a gperftools CPU profile')
    i = 2 + words[1]
    syms = Symbols(binary)
    declared = declared_frames(rows)
    got, total = {}, 0
    while i + 2 <= len(words):
        count, depth = words[i], words[i + 1]
        if count == 0 and depth == 1:
            break
        pcs = words[i + 2:i + 2 + depth]
        i += 2 + depth
        names = [syms.name(pc if j == 0 else pc - 1) for j, pc in enumerate(pcs)]
        chain = [n for n in reversed(names) if n in declared]
        # The leaf is native when no function of the executable holds it.
        k = row_key(chain, bool(names) and names[0] is None, rows)
        got[k] = got.get(k, 0) + count
        total += count
    return got, total, {'unit': 'count'}


# ----------------------------------------------------------------- figures


def shares(d, keys):
    total = sum(d.values()) or 1
    return {k: 100.0 * d.get(k, 0) / total for k in keys}


def max_error(true, got):
    return max(abs(got[k] - true[k]) for k in true)


def perfect_sampler(true, n, trials, seed=1):
    """The max errors, one per trial, of n samples drawn at random with the
    true shares."""
    if n <= 0:
        return [float('nan')]
    keys = list(true)
    cum, c = [], 0.0
    for k in keys:
        c += true[k] / 100.0
        cum.append(c)
    cum[-1] = 1.0
    rng = random.Random(seed)
    rnd, errs = rng.random, []
    for _ in range(trials):
        counts = [0] * len(keys)
        for _ in range(n):
            counts[bisect.bisect_right(cum, rnd())] += 1
        errs.append(max(abs(100.0 * counts[j] / n - true[k]) for j, k in enumerate(keys)))
    return errs


def perfect_miss_chance(perfect_errs, runs, target, resamples=4000, seed=2):
    """The chance that the median of `runs` runs of a perfect sampler exceeds
    target: the target is a bound on a random figure, which a perfect
    sampler misses too (resampled from its trials)."""
    if any(math.isnan(e) for e in perfect_errs):
        return float('nan')
    rng = random.Random(seed)
    over = sum(statistics.median(rng.choices(perfect_errs, k=runs)) > target
               for _ in range(resamples))
    return over / resamples


def run_case(case, bins, args, work, tools):
    """Runs each tool --runs times; returns {tool: [run results]}."""
    results = {t: [] for t in tools}
    for r in range(args.runs):
        for tool in tools:
            tag = f'{case.name}-{tool}-{r}'
            truth_path = os.path.join(work, tag + '.truth')
            env = dict(os.environ)
            if tool == 'spinelprof':
                folded = os.path.join(work, tag + '.folded')
                env.update(SPINEL_PROFILE=folded, SPINEL_PROFILE_HZ=str(args.hz),
                           SPINEL_PROFILE_MODE=case.mode, SPINEL_PROFILE_QUIET='1')
                env.update(args.env)
            else:
                for k in [k for k in env if k.startswith('SPINEL_PROFILE')]:
                    del env[k]
                prof = os.path.join(work, tag + '.prof')
                env.update(CPUPROFILE=prof, CPUPROFILE_FREQUENCY=str(args.hz))
                if case.mode == 'wall':
                    env['CPUPROFILE_REALTIME'] = '1'
            cmd = [bins[tool], f'{args.seconds:g}', truth_path, case.mode] + case.args(args.hz)
            if not args.reread:
                p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                   timeout=max(120, 20 * args.seconds + 60))
                if p.returncode != 0:
                    fail(f'{" ".join(cmd)} ({tool}) exited with {p.returncode}:\n{p.stderr}')
            elif not os.path.exists(truth_path):
                fail(f'--reread: {truth_path} not found (were --runs, --case the same?)')
            rows, meta = read_truth(truth_path)
            if case.mode == 'cpu' and not args.reread and not meta.get('late_read_ns'):
                fail(f'{truth_path}: no closing-read measure (meta late_read_ns) in cpu mode')
            if tool == 'spinelprof':
                got, n, facts = spinelprof_rows(os.path.splitext(folded)[0] + '.sprof', rows, args.by)
                other, _, _ = spinelprof_rows(os.path.splitext(folded)[0] + '.sprof', rows,
                                              'count' if args.by == 'weight' else 'weight')
            else:
                got, n, facts = gperftools_rows(prof, bins[tool], rows)
                other = None
            keys = list(rows) + ([UNMATCHED] if UNMATCHED in got else [])
            true = shares(rows, keys)
            meas = shares(got, keys)
            res = dict(true=true, got=meas, err=max_error(true, meas), samples=n,
                       facts=facts, meta=meta)
            if other is not None:
                res['err_other'] = max_error(true, shares(other, keys))
            results[tool].append(res)
            print(f'  [{case.name}: {tool} run {r + 1}/{args.runs}: {res["err"]:.2f} pp, {n} samples]',
                  file=sys.stderr, flush=True)
    return results


def median_run(runs):
    order = sorted(range(len(runs)), key=lambda i: runs[i]['err'])
    return runs[order[(len(order) - 1) // 2]]


def fmt_meta(meta):
    def first(k, conv=float):
        v = meta.get(k)
        return conv(v[0]) if v else None
    parts = []
    e = meta.get('empty_interval_ns')
    if e:
        es = [float(x) for x in e]
        parts.append(f'empty interval {statistics.mean(es) / 1000:.2f} us')
    pairs = sum(int(x) for x in meta.get('clock_read_pairs', []))
    win = sum(int(x) for x in meta.get('window_ns', []))
    if e and win:
        parts.append(f'{pairs} timed calls (~{100.0 * pairs * statistics.mean(es) / win:.1f}% of the time '
                     'in clock reads)')
    late = [v for _, v in meta.get('late_read_ns', [])]
    if late:
        parts.append(f'closing reads {min(late):+.0f} to {max(late):+.0f} ns/call over the '
                     'calibration\'s (taken out)')
    s = first('work_scaling_4x')
    if s:
        parts.append(f'work x4 takes x{s:.2f}')
    if 'memchr_call_ns' in meta and win:
        own, mixed = first('own_only_ns', int), first('mixed_self_ns', int)
        glue = first('glue_only_ns', int) or 0
        parts.append(f'memchr {first("memchr_call_ns"):.0f} ns/call; check of the split: sp_mixed self '
                     f'{mixed / 1e6:.1f} ms vs sp_own_only + sp_glue_only {own / 1e6:.1f} + '
                     f'{glue / 1e6:.1f} ms, {100.0 * (mixed - own - glue) / win:+.2f} pp of the total')
    if 'periods_run' in meta:
        parts.append(f'periods run {first("periods_run", int)}, skipped (late) '
                     f'{first("periods_skipped", int)}')
    return '; '.join(parts)


def report_case(case, results, args, tools):
    print(f'\n== {case.name}: {case.about} ({case.mode} mode, {args.hz} Hz, {args.seconds:g} s, '
          f'{args.runs} run{"s" if args.runs > 1 else ""}) ==')
    med = {t: median_run(results[t]) for t in tools}
    print('  truth: ' + fmt_meta(med['spinelprof']['meta']))
    keys = list(med['spinelprof']['true'])
    for t in tools[1:]:
        keys += [k for k in med[t]['true'] if k not in keys]
    # Each tool's binary has its own truth (spinelprof's wrappers make its
    # write()s dearer, for one), so each tool's column has its own.
    head = f'  {"row":28}'
    for t in tools:
        head += f' {"true %":>7} {t + " %":>13} {"err pp":>7}'
    print(head)
    for k in keys:
        line = f'  {k:28}'
        for t in tools:
            true, got = med[t]['true'].get(k), med[t]['got'].get(k)
            if true is None:
                line += f' {"":7} {"":13} {"":7}'
            else:
                line += f' {true:7.2f} {got:13.2f} {got - true:+7.2f}'
        print(line)
    summary = {}
    for t in tools:
        errs = [r['err'] for r in results[t]]
        n = int(statistics.median(r['samples'] for r in results[t]))
        true_mean = {k: statistics.mean(r['true'][k] for r in results[t]) for k in results[t][0]['true']}
        perfect_errs = perfect_sampler(true_mean, n, args.trials)
        perfect = statistics.median(perfect_errs)
        summary[t] = dict(err=statistics.median(errs), errs=errs, samples=n, perfect=perfect,
                          perfect_errs=perfect_errs,
                          facts=results[t][0]['facts'])
        if 'err_other' in results[t][0]:
            summary[t]['err_other'] = statistics.median(r['err_other'] for r in results[t])
        extra = ''
        f = results[t][0]['facts']
        if t == 'spinelprof':
            extra = (f', achieved {f.get("achieved_hz")} Hz, sampler {f.get("sampler")}, '
                     f'by {f["unit"]} (by the other: {summary[t]["err_other"]:.2f} pp)')
        print(f'  {t}: max error {summary[t]["err"]:.2f} pp (runs: '
              f'{" ".join(f"{e:.2f}" for e in errs)}); {n} samples; perfect sampler at {n} samples: '
              f'{perfect:.2f} pp{extra}')
    return summary


def parse_args():
    """The command line, its defaults filled in; None after --list."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default=os.environ.get('SPINELPROF_BUILD', os.path.join(ROOT, 'build')),
                    help='a built spinelprof tree (default: ./build)')
    ap.add_argument('--hz', type=int, default=1000, help='sampling rate asked of both profilers (1000)')
    ap.add_argument('--seconds', type=float, default=None,
                    help='per run: CPU-seconds (all threads) in cpu mode, seconds in wall mode (20; --quick: 1)')
    ap.add_argument('--runs', type=int, default=None, help='runs per case and profiler; the median is printed (5; --quick: 1)')
    ap.add_argument('--case', action='append', default=[], metavar='NAME', help='only this case (repeatable; --list)')
    ap.add_argument('--quick', action='store_true', help='CI: 1 s, 1 run, 50 trials')
    ap.add_argument('--no-gperftools', action='store_true')
    ap.add_argument('--env', action='append', default=[], metavar='KEY=VAL',
                    help='environment for the spinelprof runs (repeatable), e.g. SPINEL_PROFILE_TIMELINE_MB=0')
    ap.add_argument('--by', choices=('weight', 'count'), default='weight',
                    help="spinelprof's share of a row: the .sprof samples' weight_ns (default) or counts")
    ap.add_argument('--trials', type=int, default=None, help='perfect-sampler trials (200; --quick: 50)')
    ap.add_argument('--clang', default=os.environ.get('CLANG'), help="clang for the gperftools build (default: the build's)")
    ap.add_argument('--keep', metavar='DIR', help='keep binaries, truths and profiles in DIR')
    ap.add_argument('--reread', metavar='DIR',
                    help='run nothing: read the truths and profiles a --keep DIR run left (same --case, --runs, --hz)')
    ap.add_argument('--list', action='store_true', help='list the cases and exit')
    args = ap.parse_args()
    if args.list:
        for c in CASES:
            print(f'{c.name:16} {c.source:16} {c.about}')
        return None
    args.seconds = args.seconds or (1.0 if args.quick else 20.0)
    args.runs = args.runs or (1 if args.quick else 5)
    args.trials = args.trials or (50 if args.quick else 200)
    env = {}
    for e in args.env:
        if '=' not in e:
            ap.error(f'--env {e}: expected KEY=VAL')
        k, v = e.split('=', 1)
        env[k] = v
    args.env = env
    names = {c.name for c in CASES}
    for n in args.case:
        if n not in names:
            ap.error(f'unknown case {n} (--list)')
    args.cases = [c for c in CASES if not args.case or c.name in args.case]
    args.spinel_prof = os.path.join(args.build, 'bin', 'spinel-prof')
    if not os.path.exists(args.spinel_prof):
        fail(f'{args.spinel_prof} not found (build first, or --build DIR)')
    args.clang = args.clang or read_cache(args.build, 'SPINELPROF_CLANG') or 'clang'
    return args


def print_header(args, work):
    """What the run measures with, and gperftools' part. Returns the tools run."""
    tools = ['spinelprof']
    gp_note = 'not run (--no-gperftools)'
    if not args.no_gperftools:
        if have_gperftools(args.clang, work):
            tools.append('gperftools')
            gp_note = f'CPUPROFILE_FREQUENCY={args.hz} (CPUPROFILE_REALTIME=1 in wall mode), counts'
        else:
            gp_note = 'not run: -lprofiler not found (apt-get install libgoogle-perftools-dev)'
    sys.stdout.reconfigure(line_buffering=True)  # Long runs: show each case as it ends.
    print('accuracy: max error = the largest |measured share - true share| over the rows (pp)')
    if args.reread:
        print(f'  re-read from {args.reread} (machine facts not measured again)')
    else:
        for k, v in machine_facts(work, args.clang, 0.5 if args.quick else 2):
            print(f'  {k + ":":16} {v}')
    print(f'  {"build:":16} {build_info(args.build)}')
    print(f'  {"spinelprof:":16} spinel-prof cc -O2; SPINEL_PROFILE_HZ={args.hz}, by {args.by}'
          + (f'; env {" ".join(f"{k}={v}" for k, v in args.env.items())}' if args.env else ''))
    print(f'  {"gperftools:":16} {gp_note}')

    return tools


def print_summary(args, summaries, tools):
    """The summary table: each case's error against its target and gperftools'."""
    print(f'\nsummary ({args.hz} Hz, {args.seconds:g} s, median of {args.runs} run{"s" if args.runs > 1 else ""};'
          ' target: spinelprof <= max(0.5, 1.2 x perfect) and <= gperftools)')
    head = f'  {"case":15} {"samples":>8} {"perfect":>8} {"target":>7} {"spinelprof":>10} {"by " + ("count" if args.by == "weight" else "weight"):>9}'
    if 'gperftools' in tools:
        head += f' {"gperftools":>10} {"samples":>8} {"perfect":>8}'
    print(head + '  verdict  (perfect misses)')
    all_met = 1.0
    for case, s in summaries:
        sp = s['spinelprof']
        target = max(0.5, 1.2 * sp['perfect'])
        chance = perfect_miss_chance(sp['perfect_errs'], args.runs, target)
        all_met *= 1 - chance
        ok = sp['err'] <= target
        line = (f'  {case.name:15} {sp["samples"]:8d} {sp["perfect"]:8.2f} {target:7.2f} {sp["err"]:10.2f}'
                f' {sp["err_other"]:9.2f}')
        if 'gperftools' in s:
            g = s['gperftools']
            line += f' {g["err"]:10.2f} {g["samples"]:8d} {g["perfect"]:8.2f}'
            ok = ok and sp['err'] <= g['err']
        print(line + ('  met    ' if ok else '  missed ') + f'  ({chance:.3f})')
    print(f'  {"":15} (pp; "perfect": median max error of a perfect sampler at the samples delivered;')
    print(f'  {"":15} "perfect misses": the chance that its median of {args.runs} exceeds the target)')
    print(f'  a perfect sampler would meet all {len(summaries)} targets with probability {all_met:.2f}')


def main():
    args = parse_args()
    if args is None:
        return 0
    work = args.reread or args.keep or tempfile.mkdtemp(prefix='spinelprof-accuracy-')
    os.makedirs(work, exist_ok=True)
    tools = print_header(args, work)
    summaries = []
    for case in args.cases:
        bins = build_case(case, args, work, 'gperftools' in tools)
        results = run_case(case, bins, args, work, tools)
        summaries.append((case, report_case(case, results, args, tools)))
    print_summary(args, summaries, tools)
    if not args.keep and not args.reread:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f'kept in {work}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
