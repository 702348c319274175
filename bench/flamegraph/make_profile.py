#!/usr/bin/env python3
"""Writes a large synthetic .sprof for the flamegraph first-paint benchmark.

    make_profile.py OUT.sprof [--stacks 100000] [--depth 200] [--tail 40] [--seed 1]

Stacks are made the way real profiles look: each new stack takes an earlier
one, keeps a prefix of it and grows a fresh tail, so callers are shared and
leaves differ. --tail is the most frames a stack replaces (a larger tail
means less sharing, more call-tree nodes). Depths are up to --depth; every
stack is distinct; two threads; a mix of user, block, runtime and gc frames.
"""
import argparse
import json
import random


def make_frames(rnd, count):
    """Frames named like a Spinel program's: user, block, runtime and gc."""
    kinds = ["user"] * 6 + ["block"] * 2 + ["runtime"] * 3 + ["gc"]
    frames = []
    for i in range(count):
        kind = rnd.choice(kinds)
        if kind == "runtime":
            name, c = "sp_rt_helper_%d" % i, "sp_rt_helper_%d" % i
        elif kind == "gc":
            name, c = "sp_gc_step_%d" % i, "sp_gc_step_%d" % i
        elif kind == "block":
            name, c = "block in Mod%d::Class%d#meth_%d" % (i % 17, i % 31, i), "_sp_proc_fn_%d" % i
        else:
            name, c = "Mod%d::Class%d#method_%d" % (i % 17, i % 31, i), "sp_Mod%d_Class%d_method_%d" % (i % 17, i % 31, i)
        frames.append({"name": name, "c_name": c, "kind": kind,
                       "file": "app.rb" if kind in ("user", "block") else "sp_runtime.h",
                       "line": 1 + i})
    frames[0] = {"name": "<main>", "c_name": "main", "kind": "user", "file": "app.rb", "line": 1}
    return frames


def make_stacks(rnd, count, depth, tail, frames):
    """count distinct stacks (tuples of frame indexes), up to depth deep."""
    seen = set()
    stacks = []
    trunk = [0]
    while len(stacks) < count:
        if stacks and rnd.random() < 0.97:
            base = rnd.choice(stacks[-2000:]) if rnd.random() < 0.8 else rnd.choice(stacks)
            keep = max(1, len(base) - rnd.randint(1, tail))
            stack = list(base[:keep])
        else:
            stack = list(trunk)
        target = rnd.randint(max(2, depth - 60), depth)
        while len(stack) < target and len(stack) < depth:
            stack.append(rnd.randrange(1, frames))
        t = tuple(stack)
        if t in seen:
            continue
        seen.add(t)
        stacks.append(t)
    return stacks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--stacks", type=int, default=100000)
    ap.add_argument("--depth", type=int, default=200)
    ap.add_argument("--tail", type=int, default=40)
    ap.add_argument("--frames", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    frames = make_frames(rnd, a.frames)
    stacks = make_stacks(rnd, a.stacks, a.depth, a.tail, a.frames)

    samples = []
    total = 0
    for i, s in enumerate(stacks):
        count = 1 + int(rnd.paretovariate(1.5))
        total += count
        samples.append({"thread": 100 + (i % 2), "stack": list(s), "count": count,
                        "weight_ns": count * 1000000})
    doc = {"format": "spinelprof", "version": 1, "command": ["./bench"], "mode": "cpu",
           "requested_hz": 1000, "sample_count": total, "frames": frames,
           "threads": [{"tid": 100, "name": "main"}, {"tid": 101, "name": "worker"}],
           "samples": samples}
    with open(a.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
