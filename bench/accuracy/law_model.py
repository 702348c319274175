#!/usr/bin/env python3
"""The sampling law on an ideal machine: how far each law of instants
reads a periodic program whose samples perturb it.

usage: law_model.py [--samples N] [--runs R] [--seed S]

The program wakes at every multiple of its period T on the wall clock
(0.5, 1 and 4 sampling periods), runs `first` then `second` (a quarter of
the period each), then waits for the next deadline: asleep (instants in
the sleep are no samples and cost nothing, as the blocking-call wrappers
make them) or spinning (the wait is CPU of the row `<rest>`). Each sample
stops the program for a stall drawn as 45 us plus an exponential of mean
17 us (median ~57 us, mean ~62: the shape measured on the 2-vCPU VM of
results/2026-11-26-wakeup-region.md), counted in the truth of the row it
hit. The instants fall on the program's time less the stalls, mean
interval Q = P - the stall's median, P = 1 ms:

  strata       one instant uniform in each stratum of Q
  exponential  intervals of the exponential law of mean Q (Poisson)

A stall moves the program's next deadline earlier on that time, so where
a deadline falls depends on whether an instant came before it; a law that
makes an instant less likely right after another (any law more regular
than Poisson) then samples the moved stretch less often than its truth.
Prints, per program and law, the mean of (measured - true share) of each
row over R runs of N samples, in percentage points (its standard error is
about 0.5 / sqrt(N R / 20000)).
"""
import argparse
import random
import statistics

P = 1000.0  # us


def stall(rnd):
    return 45.0 + rnd.expovariate(1 / 17.0)


MEDIAN_STALL = 45.0 + 17.0 * 0.6931471805599453


class Instants:
    """The law's instants on the program's time less the stalls (tau)."""

    def __init__(self, law, q, rnd):
        self.law, self.q, self.rnd, self.start = law, q, rnd, 0.0

    def after(self, tau):
        """The next instant after tau (strata: in the strata not yet begun
        or the one holding tau; exponential: memoryless from tau)."""
        if self.law == 'exponential':
            return tau + self.rnd.expovariate(1 / self.q)
        while True:
            u = self.start + self.rnd.random() * self.q
            self.start += self.q
            if u >= tau:
                return u


class Program:
    """The periodic program, its truth and its samples."""

    def __init__(self, law, wait, samples, rnd):
        self.instants = Instants(law, P - MEDIAN_STALL, rnd)
        self.wait, self.samples, self.rnd = wait, samples, rnd
        self.truth = {'first': 0.0, 'second': 0.0, '<rest>': 0.0}
        self.count = dict.fromkeys(self.truth, 0)
        self.wall = self.tau = 0.0
        self.due = self.instants.after(0.0)

    def cpu(self, row, length=None, deadline=None):
        """Runs row for length of CPU, or until the wall clock reaches
        deadline (a spin: a stall shortens it)."""
        while self.taken() < self.samples:
            left = length if deadline is None else deadline - self.wall
            if left <= 0:
                return
            step = min(left, self.due - self.tau)
            self.wall += step
            self.tau += step
            self.truth[row] += step
            if length is not None:
                length -= step
            if self.tau < self.due:
                return
            self.count[row] += 1
            s = stall(self.rnd)
            self.wall += s  # the stall: wall time, not the law's time
            self.truth[row] += s
            self.due = self.instants.after(self.tau)

    def sleep(self, deadline):
        """Asleep to deadline: its instants are skipped, at no cost."""
        if deadline > self.wall:
            self.tau += deadline - self.wall
            self.wall = deadline
            while self.due <= self.tau:
                self.due = self.instants.after(self.due)

    def taken(self):
        return sum(self.count.values())

    def run(self, period):
        deadline = 0.0
        while self.taken() < self.samples:
            deadline += period
            while deadline <= self.wall:  # the work overran: skip a period
                deadline += period
            self.cpu('first', period / 4)
            self.cpu('second', period / 4)
            if self.wait == 'sleep':
                self.sleep(deadline)
            else:
                self.cpu('<rest>', deadline=deadline)
        t, c = sum(self.truth.values()), self.taken()
        return {r: 100 * self.count[r] / c - 100 * self.truth[r] / t for r in self.truth}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', type=int, default=20000)
    ap.add_argument('--runs', type=int, default=8)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    print('mean error (pp) over %d runs of %d samples: first, second, <rest>' % (a.runs, a.samples))
    for wait in ('sleep', 'spin'):
        for mult in (0.5, 1, 4):
            for law in ('strata', 'exponential'):
                errs = [Program(law, wait, a.samples, rnd).run(mult * P) for _ in range(a.runs)]
                mean = {r: statistics.mean(e[r] for e in errs) for r in errs[0]}
                print('%-5s %3gx %-12s %+.2f %+.2f %+.2f' % (
                    wait, mult, law, mean['first'], mean['second'], mean['<rest>']))


if __name__ == '__main__':
    main()
