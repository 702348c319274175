#!/usr/bin/env python3
"""Writes a large synthetic .sprof with a timeline for the flamegraph
first-paint benchmark (the page's timeline strip, issue 19).

    make_timeline_profile.py OUT.sprof [--events 1000000] [--stacks 100000]
                             [--depth 200] [--threads 2] [--hz 1000] [--seed 1]

The stacks and frames are make_profile.py's (the same 100 000 stacks up to
200 frames deep by default), so the page's tree is as big as the other
benchmark's and the timeline comes on top. --events samples are spread over
--threads threads, one every 1/--hz seconds of each thread's time with a
little jitter; the run goes through phases (a tenth of the run each), and
each phase samples its own part of the stacks, so the strip and a selected
range have something to show. Each event is one sample (count 1); the
"samples" list is the events aggregated per (thread, stack). Deterministic
for a given seed.
"""
import argparse
import json
import random

from make_profile import make_frames, make_stacks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--events", type=int, default=1000000)
    ap.add_argument("--stacks", type=int, default=100000)
    ap.add_argument("--depth", type=int, default=200)
    ap.add_argument("--tail", type=int, default=40)
    ap.add_argument("--frames", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    frames = make_frames(rnd, a.frames)
    stacks = make_stacks(rnd, a.stacks, a.depth, a.tail, a.frames)
    period = 1000000000 // a.hz
    per_thread = a.events // a.threads
    phases = 10
    phase_stacks = len(stacks) // phases

    sample_index = {}  # (thread, stack) -> index into samples
    samples = []
    timeline = []
    for t in range(a.threads):
        tid = 100 + t
        time, previous = 0, 0
        deltas, sample_of, counts, weights = [], [], [], []
        for i in range(per_thread):
            time += period + rnd.randrange(-period // 10, period // 10 + 1)
            phase = min(phases - 1, i * phases // per_thread)
            # Mostly the phase's stacks (a few hot ones most), now and then any.
            if rnd.random() < 0.9:
                k = phase * phase_stacks + min(phase_stacks - 1, int(rnd.paretovariate(1.2)) - 1)
            else:
                k = rnd.randrange(len(stacks))
            key = (tid, k)
            s = sample_index.get(key)
            if s is None:
                s = sample_index[key] = len(samples)
                samples.append({"thread": tid, "stack": list(stacks[k]), "count": 0, "weight_ns": 0})
            samples[s]["count"] += 1
            samples[s]["weight_ns"] += period
            deltas.append(time - previous)
            previous = time
            sample_of.append(s)
            counts.append(1)
            weights.append(period)
        timeline.append({"thread": tid, "bucket_ns": 0, "merged": 0, "missing": 0,
                         "time_ns": deltas, "sample": sample_of, "count": counts,
                         "weight_ns": weights})
    total = per_thread * a.threads
    threads = [{"tid": 100 + t, "name": "main" if t == 0 else "worker-%d" % t}
               for t in range(a.threads)]
    doc = {"format": "spinelprof", "version": 4, "command": ["./bench"], "mode": "cpu",
           "duration_ns": per_thread * period, "requested_hz": a.hz, "sample_count": total,
           "frames": frames, "threads": threads, "samples": samples, "timeline": timeline}
    with open(a.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
