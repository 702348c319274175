#!/usr/bin/env python3
"""Paired ratios of the Spinel part of run.py, with their standard errors,
and the verdict on each target of issue 17 that the noise allows.

Each round runs every variant of a benchmark back to back, so a round's
ratio variant / plain pairs two runs seconds apart. The estimate of a
variant's cost on a benchmark is the geometric mean of its per-round
ratios, exp(mean of log ratios), with the standard error of that mean
(SD / sqrt(rounds), on the log scale: 0.03 is about 3 %). Over the
benchmarks: the geometric mean of the estimates, its error the root sum
of squares / n. A target is "met" when the estimate is below it by at
least 2 standard errors, "missed" when above it by at least 2, and
otherwise "not resolved": more rounds would be needed to say.

    bench/overhead/paired.py WORK/spinel-results.json... [--default on100]

re-reads a finished run (run.py writes every run's wall and CPU time
there) and prints the same tables run.py prints at its end; given the
results of several runs of the same build, it pools their rounds.
"""
import argparse
import json
import math
import statistics
import sys

# Issue 17's targets, wall time, ratio to plain, at the default rate.
OFF_GEOMEAN = 1.02
ON_GEOMEAN = 1.03
ON_EACH = 1.06
CONFIDENCE_SE = 2.0


def log_ratios(a_runs, b_runs, which=0):
    """log(a / b) of each round where both ran (runs: (wall, cpu, ...))."""
    return [lr for lr in log_ratios_by_round(a_runs, b_runs, which) if lr is not None]


def log_ratios_by_round(a_runs, b_runs, which=0):
    """log(a / b) of each round, None where one of them did not run."""
    return [math.log(a[which] / b[which]) if a[which] > 0 and b[which] > 0 else None
            for a, b in zip(a_runs, b_runs)]


def estimate(lrs):
    """(mean log ratio, its standard error) of a list of log ratios."""
    if len(lrs) < 2:
        return (lrs[0] if lrs else float('nan')), float('inf')
    return statistics.mean(lrs), statistics.stdev(lrs) / math.sqrt(len(lrs))


def combine(estimates):
    """The geometric mean of several estimates, on the log scale, with its
    standard error (the estimates are independent: different benchmarks)."""
    n = len(estimates)
    return (sum(m for m, _ in estimates) / n,
            math.sqrt(sum(s * s for _, s in estimates)) / n)


def verdict(est, target):
    """'met', 'missed' or 'not resolved' of a log-scale estimate against
    a ratio target."""
    m, s = est
    t = math.log(target)
    if m + CONFIDENCE_SE * s <= t:
        return 'met'
    if m - CONFIDENCE_SE * s > t:
        return 'missed'
    return 'not resolved'


def fmt(est):
    """×ratio ± standard error, the error as a ratio (×1.03 ± 0.01)."""
    m, s = est
    if math.isinf(s):
        return '×%.3f (one round: no error)' % math.exp(m)
    return '×%.3f ± %.3f' % (math.exp(m), math.exp(m) * s)


def paired(runs, names, variants, against='plain', which=0):
    """{variant: [estimate per benchmark]} of variant / against."""
    return {v: [estimate(log_ratios(runs[(p, v)], runs[(p, against)], which)) for p in names]
            for v in variants if v != against and all((p, v) in runs for p in names)}


def print_table(runs, names, variants, label, rounds):
    """The paired table: each variant / plain, per benchmark and over all."""
    est = paired(runs, names, variants)
    shown = [v for v in variants if v in est]
    print('\n### Wall time, paired by round: geometric mean of the %d rounds\' '
          'variant / plain, ± its standard error\n' % rounds)
    print('| benchmark |' + ''.join(' %s |' % label(v) for v in shown))
    print('|' + '---|' * (1 + len(shown)))
    for i, p in enumerate(names):
        print('| %s |' % p + ''.join(' %s |' % fmt(est[v][i]) for v in shown))
    print('| geometric mean |' + ''.join(' %s |' % fmt(combine(est[v])) for v in shown))
    return est


def print_targets(runs, names, est, label, default, off='off', ongp='ongp',
                  gperftools='gperftools', prefix=''):
    """Issue 17's targets on the paired estimates, each with its verdict."""
    lines = []
    if prefix + off in est:
        g = combine(est[prefix + off])
        lines.append('off geomean %s <= %.2f: %s' % (fmt(g), OFF_GEOMEAN, verdict(g, OFF_GEOMEAN)))
    if prefix + default in est:
        g = combine(est[prefix + default])
        lines.append('%s geomean %s <= %.2f: %s' % (label(default), fmt(g), ON_GEOMEAN,
                                                   verdict(g, ON_GEOMEAN)))
        each = {'met': [], 'missed': [], 'not resolved': []}
        for p, e in zip(names, est[prefix + default]):
            each[verdict(e, ON_EACH)].append('%s %s' % (p, fmt(e)))
        lines.append('%s each <= %.2f: met by %d of %d; missed: %s; not resolved: %s' % (
            label(default), ON_EACH, len(each['met']), len(names),
            ', '.join(each['missed']) or 'none', ', '.join(each['not resolved']) or 'none'))
    if prefix + ongp in est and gperftools in est:
        vs = paired(runs, names, [prefix + ongp, gperftools], against=gperftools)[prefix + ongp]
        above = [(p, e) for p, e in zip(names, vs) if verdict(e, 1.0) == 'missed']
        below = [p for p, e in zip(names, vs) if verdict(e, 1.0) == 'met']
        lines.append('%s / gperftools, round by round: geomean %s; above gperftools: %s; '
                     'below: %s; the rest level within the noise' % (
                         label(ongp), fmt(combine(vs)),
                         ', '.join('%s %s' % (p, fmt(e)) for p, e in above) or 'none',
                         ', '.join(below) or 'none'))
    return lines


def distinct_placements(placements):
    """The distinct code shifts of the rounds' placements, smallest first
    (None, one placement with nothing linked before the program, first)."""
    return sorted(set(placements), key=lambda x: -1 if x is None else x)


def print_placements(runs, names, variants, placements, label):
    """Each variant / plain per benchmark at each code placement (the
    rounds run at it), when there were several: how far where the code
    falls moves a ratio, which the table over all rounds averages."""
    shifts = distinct_placements(placements)
    if len(shifts) < 2:
        return
    for v in variants:
        if not all((p, v) in runs for p in names):
            continue
        print('\n### %s / plain at each code placement (shift in bytes), paired\n' % label(v))
        print('| benchmark |' + ''.join(' +%s |' % s for s in shifts) + ' largest / smallest |')
        print('|' + '---|' * (2 + len(shifts)))
        for p in names:
            ms = [estimate([lr for lr, at in zip(log_ratios_by_round(runs[(p, v)], runs[(p, 'plain')]),
                                                  placements) if lr is not None and at == s])[0]
                  for s in shifts]
            print('| %s |' % p + ''.join(' ×%.3f |' % math.exp(m) for m in ms) +
                  ' ×%.3f |' % math.exp(max(ms) - min(ms)))


def load(path):
    """(runs by (benchmark, variant), benchmark names, each round's code
    placement) of one results file (files of runs before placements: None)."""
    try:
        with open(path) as f:
            data = json.load(f)
        runs = {tuple(k.split(' ', 1)): v for k, v in data['runs'].items()}
        rounds = min(len(r) for r in runs.values())
        placements = data.get('placements') or [None] * rounds
        if len(placements) != rounds:
            raise ValueError('%d placements for %d rounds' % (len(placements), rounds))
        return runs, [p for p, _ in data['benchmarks']], placements
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit('paired.py: %s: not a run.py spinel-results.json (%s)' % (path, e))


def pool(paths):
    """The rounds of several runs of the same benchmarks and placements,
    one after another: more rounds, a smaller error. Variants that not
    every run has (a --baseline run's base-*) are left out, saying so."""
    runs, names, placements = load(paths[0])
    for path in paths[1:]:
        more, more_names, more_placements = load(path)
        if more_names != names or set(more_placements) != set(placements):
            raise SystemExit('paired.py: %s: not the benchmarks and placements of %s: '
                             'only runs of the same ones pool' % (path, paths[0]))
        shared = set(runs) & set(more)
        left_out = sorted({v for _, v in set(runs) ^ set(more)})
        if not any(v == 'plain' for _, v in shared):
            raise SystemExit('paired.py: %s and %s share no plain runs' % (paths[0], path))
        if left_out:
            print('paired.py: variants not in every run, left out: %s' % ', '.join(left_out),
                  file=sys.stderr)
        runs = {key: runs[key] + more[key] for key in shared}
        placements = placements + more_placements
    return runs, names, placements


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('results', nargs='+',
                    help='spinel-results.json written by run.py; several (runs of the '
                    'same build) pool their rounds')
    ap.add_argument('--default', default='on100', help='the variant at the default rate')
    args = ap.parse_args()
    runs, names, placements = pool(args.results)
    variants = ['plain'] + sorted({v for _, v in runs if v != 'plain'})
    rounds = min(len(r) for r in runs.values())
    est = print_table(runs, names, variants, str, rounds)
    print_placements(runs, names, ['off', args.default], placements, str)
    print('\nTargets (issue 17, paired, %g standard errors):' % CONFIDENCE_SE)
    for line in print_targets(runs, names, est, str, args.default):
        print('- ' + line)


if __name__ == '__main__':
    main()
