#!/usr/bin/env python3
"""Both profilers on the same run: spinelprof and gperftools sample one
process, so that their readings of a case are compared with each other,
free of the truth's model and of run-to-run differences.

usage: paired.py --case NAME [--build DIR] [--runs N] [--seconds S] [--hz N]
                 [--keep DIR]

The case (run.py --list) is built with `spinel-prof cc` and linked with
-lprofiler as well; each run sets SPINEL_PROFILE and CPUPROFILE together
(gperftools' SIGPROF and spinelprof's own real-time signal do not meet).
Each profiler sees the other's signal handler: gperftools' samples in
spinelprof's handler (~4-7 % at 1 kHz here) fall outside every row, so
shares are compared over the rows without <rest>. Printed per run and as
the mean over runs (with its standard error): each row's share by the
truth, by spinelprof and by gperftools, and spinelprof minus gperftools.
A row where the two agree and the truth differs is the truth's model (or a
bias every PC sampler shares), not spinelprof's. cpu-mode cases only.
Exit status 0 whatever the readings; 1 if the build or a run fails.
"""
import argparse
import importlib.util
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('accuracy_run', os.path.join(HERE, 'run.py'))
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def without_rest(d, keys):
    """Shares (percent) over keys, <rest> left out."""
    ks = [k for k in keys if k != '<rest>']
    return run.shares({k: d.get(k, 0) for k in ks}, ks)


def one_run(case, binary, work, i, args):
    stem = os.path.join(work, f'{case.name}-{i}')
    env = dict(os.environ, SPINEL_PROFILE=stem + '.folded', SPINEL_PROFILE_HZ=str(args.hz),
               SPINEL_PROFILE_MODE='cpu', SPINEL_PROFILE_QUIET='1',
               CPUPROFILE=stem + '.prof', CPUPROFILE_FREQUENCY=str(args.hz))
    cmd = [binary, f'{args.seconds:g}', stem + '.truth', 'cpu'] + case.args(args.hz)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=max(120, 20 * args.seconds + 60))
    if p.returncode != 0:
        run.fail(f'{" ".join(cmd)} exited with {p.returncode}:\n{p.stderr}')
    rows, _ = run.read_truth(stem + '.truth')
    sp, nsp, _ = run.spinelprof_rows(stem + '.sprof', rows, 'weight')
    gp, ngp, _ = run.gperftools_rows(stem + '.prof', binary, rows)
    keys = [k for k in rows if k != '<rest>']
    return keys, without_rest(rows, keys), without_rest(sp, keys), without_rest(gp, keys), nsp, ngp


def mean_se(xs):
    m = statistics.mean(xs)
    return m, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--case', required=True, help='a cpu-mode case of run.py --list')
    ap.add_argument('--build', default=os.path.join(run.ROOT, 'build'))
    ap.add_argument('--runs', type=int, default=6)
    ap.add_argument('--seconds', type=float, default=20.0)
    ap.add_argument('--hz', type=int, default=1000)
    ap.add_argument('--keep', metavar='DIR', help='keep the binary, truths and profiles in DIR')
    args = ap.parse_args()
    case = next((c for c in run.CASES if c.name == args.case), None)
    if case is None or case.mode != 'cpu':
        ap.error(f'--case {args.case}: not a cpu-mode case of run.py --list')
    work = args.keep or tempfile.mkdtemp(prefix='spinelprof-paired-')
    os.makedirs(work, exist_ok=True)
    binary = os.path.join(work, case.name)
    r = run.sh([os.path.join(args.build, 'bin', 'spinel-prof'), 'cc', '-O2', '-g',
                '-fno-omit-frame-pointer', '-no-pie', '-pthread',
                os.path.join(run.CASES_DIR, case.source), '-o', binary,
                '-Wl,--no-as-needed', '-lprofiler', '-Wl,--as-needed'])
    if r.returncode != 0:
        run.fail(f'{case.source} did not build with spinel-prof cc -lprofiler:\n{r.stderr}')
    per_row = {}
    print(f'{case.name}: {args.runs} runs of {args.seconds:g} s at {args.hz} Hz, both profilers in each;'
          ' shares in % over the rows without <rest>')
    for i in range(args.runs):
        keys, true, sp, gp, nsp, ngp = one_run(case, binary, work, i, args)
        print(f'run {i + 1}: {nsp} spinelprof samples, {ngp} gperftools samples')
        for k in keys:
            print(f'  {k:28} truth {true[k]:6.2f}  spinelprof {sp[k]:6.2f}  gperftools {gp[k]:6.2f}'
                  f'  sp-gp {sp[k] - gp[k]:+6.2f}')
            per_row.setdefault(k, []).append((true[k], sp[k], gp[k]))
    print('mean over runs (standard error): spinelprof - truth, gperftools - truth, spinelprof - gperftools')
    for k, v in per_row.items():
        cells = [mean_se(d) for d in ([s - t for t, s, g in v], [g - t for t, s, g in v],
                                      [s - g for t, s, g in v])]
        print(f'  {k:28}' + ''.join(f' {m:+6.2f} ({"-" if se is None else f"{se:.2f}"}) '
                                    for m, se in cells))
    return 0


if __name__ == '__main__':
    sys.exit(main())
