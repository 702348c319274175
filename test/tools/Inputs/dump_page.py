#!/usr/bin/env python3
"""Checks a spinel-prof flamegraph page and prints its data as text.

    dump_page.py PAGE.html

Checks that the page is self-contained (no URL it would load: no src= or
href= other than the empty data: icon, no http(s):// anywhere, no @import),
that it has exactly the template's two scripts, and that the data block
holds no '<' (so no name can end the script element). Then decodes the
call tree with its own decoder (the page's format: per node after the root
varint(frame * 4 + min(climb, 3)), then varint(climb - 3) if climb >= 3; 5
bits a character, "more" bit 32, URL-safe base64 alphabet) and prints title, mode, frames, threads and the samples as
folded stacks, so golden files are readable and the encoding is checked.
A page with a timeline also gets it decoded (per event varint(time step),
varint(sample * 2 + (count != 1)), varint(count) if count != 1), checked
(times in order, samples in range, per-sample sums within the sample's
count) and printed as "time_us thread count stack" lines.
"""
import html
import json
import re
import sys

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def fail(msg):
    sys.exit("dump_page.py: " + msg)


def varint_reader(text):
    pos = 0

    def varint():
        nonlocal pos
        v, mul = 0, 1
        while True:
            c = ALPHABET.index(text[pos])
            pos += 1
            v += (c & 31) * mul
            mul *= 32
            if not c & 32:
                return v

    return varint, lambda: pos == len(text)


def print_timeline(page, d, stack_of):
    tl = d["timeline"]
    e = re.search(r'</script>\n<script id="profile-timeline" type="text/plain">([A-Za-z0-9_.-]*)</script>\n<script id="profile-tree"', page)
    if not e:
        fail("no profile-timeline script (URL-safe base64 and '.') between the code and the tree")
    events = e.group(1).split(".")
    if len(events) != len(tl["threads"]):
        fail("%d threads' events for %d timeline rows" % (len(events), len(tl["threads"])))
    kinds = tl["kinds"]
    n = len(d["samples"]) // 3
    if len(kinds) != n or set(kinds) - set("0123"):
        fail("timeline kinds %r do not class the %d samples" % (kinds, n))
    print("timeline: unit_ns %d end %d kinds %s" % (tl["unit_ns"], tl["end"], kinds))
    summed = [0] * n
    for row, data in zip(tl["threads"], events):
        thread = d["threads"][row["thread"]]
        print("  thread %d %s: %d events, bucket_ns %d merged %d missing %d" % (
            thread["tid"], thread["name"], row["events"], row["bucket_ns"], row["merged"], row["missing"]))
        varint, done = varint_reader(data)
        time = 0
        for _ in range(row["events"]):
            time += varint()
            v = varint()
            sample, count = v >> 1, varint() if v & 1 else 1
            if sample >= n:
                fail("timeline event names sample %d of %d" % (sample, n))
            if time > tl["end"]:
                fail("timeline event at %d after the end %d" % (time, tl["end"]))
            summed[sample] += count
            print("    %d %d %s" % (time, count, stack_of(sample)))
        if not done():
            fail("timeline data of thread %d has trailing characters" % thread["tid"])
    for i in range(n):
        if summed[i] > d["samples"][3 * i + 2]:
            fail("timeline counts %d for sample %d of count %d" % (summed[i], i, d["samples"][3 * i + 2]))


def decode_tree(text, n):
    varint, done = varint_reader(text)
    depth, frame, parent = [0], [-1], [-1]
    path = [0]
    for i in range(1, n):
        v = varint()
        climb = v & 3
        if climb == 3:
            climb += varint()
        d = depth[-1] + 1 - climb
        f = v >> 2
        if d < 1 or d > len(path):
            fail("bad climb at node %d" % i)
        del path[d:]
        parent.append(path[d - 1])
        path.append(i)
        depth.append(d)
        frame.append(f)
    if not done():
        fail("tree has trailing characters")
    return parent, frame


def check_page(page):
    """The page is self-contained with the template's scripts. Returns the
    tree script's text and the data block, parsed."""
    for bad in (r"https?://", r"@import", r"<script[^>]+src=", r"<link(?![^>]*href=\"data:,\")[^>]*href="):
        if re.search(bad, page, re.I):
            fail("page is not self-contained: matches %r" % bad)
    scripts = 4 if 'id="profile-timeline"' in page else 3
    if len(re.findall(r"<script", page)) != scripts or len(re.findall(r"</script", page, re.I)) != scripts:
        fail("expected exactly the template's script elements (data, code, [timeline,] tree)")
    t = re.search(r'<script id="profile-tree" type="text/plain">([A-Za-z0-9_-]*)</script>\s*</body>', page)
    if not t:
        fail("no profile-tree script (URL-safe base64 only) at the end of the body")
    m = re.search(r'<script id="profile-data" type="application/json">(.*?)</script>', page, re.S)
    if not m:
        fail("no profile-data script")
    if "<" in m.group(1):
        fail("'<' inside the data block")
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    d = json.loads(m.group(1))
    if html.unescape(title) != d["title"]:
        fail("<title> %r is not the escaped title %r" % (title, d["title"]))
    print("title:", title)
    return t.group(1), d


def path_frames(node, parent, frame):
    """The frame indexes on node's path, root first (the root node itself,
    0, has none)."""
    frames = []
    while node > 0:
        frames.append(frame[node])
        node = parent[node]
    return frames[::-1]


def stack_names(node, parent, frame, names):
    """The names on node's path, root first, joined by ';'."""
    return ";".join(names[f] for f in path_frames(node, parent, frame))


def node_paths(parent, frame):
    """Each node's path of frame indexes, root first."""
    return [tuple(path_frames(i, parent, frame)) for i in range(len(parent))]


def check_summary(d, parent, frame):
    """The summary tree's totals are the full tree's, and it keeps exactly
    the nodes at least 1/4000 of the root wide."""
    s, sm = d["samples"], d["summary"]
    total = [0] * len(parent)
    for i in range(len(s) // 3):
        total[s[3 * i]] += s[3 * i + 2]
    for i in range(len(parent) - 1, 0, -1):
        total[parent[i]] += total[i]
    full = dict(zip(node_paths(parent, frame), total))
    sp, sf = decode_tree(sm["tree"], sm["nodes"])
    for path, tot in zip(node_paths(sp, sf), sm["total"]):
        if full.get(path) != tot:
            fail("summary node %r has total %d, the tree says %r" % (path, tot, full.get(path)))
    kept = sum(1 for v in total if v * 4000 >= total[0])
    if kept != sm["nodes"]:
        fail("summary has %d nodes, %d are wide enough" % (sm["nodes"], kept))
    print("summary: %d of %d nodes, totals agree" % (sm["nodes"], len(parent)))


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    tree, d = check_page(page)
    print("mode:", d["mode"], "icicle:", d["icicle"])
    if "unit" in d:
        print("unit:", d["unit"])
    fr = d["frames"]
    print("frames:")
    for i, name in enumerate(fr["name"]):
        print("  %d %s | %s | %s | %s:%d" % (i, json.dumps(name), fr["cname"][i],
                                             d["kinds"][fr["kind"][i]], fr["file"][i], fr["line"][i]))
    print("threads:", ", ".join("%d %s" % (t["tid"], t["name"]) for t in d["threads"]) or "-")
    parent, frame = decode_tree(tree, d["nodes"])
    s = d["samples"]
    weights = d.get("weights")
    print("samples (thread count [weight_ns] stack):")
    for i in range(len(s) // 3):
        node, thread, count = s[3 * i:3 * i + 3]
        tid = d["threads"][thread]["tid"] if thread >= 0 else "-"
        w = " %d" % weights[i] if weights else ""
        print("  %s %d%s %s" % (tid, count, w, stack_names(node, parent, frame, fr["name"])))
    if "timeline" in d:
        print_timeline(page, d, lambda i: stack_names(s[3 * i], parent, frame, fr["name"]))
    if "summary" in d:
        check_summary(d, parent, frame)
    if "before" in d:
        b = d["before"]
        print("before: %s, %d samples" % (b["source"], b["total"]))
        print("before totals by node:", b["nodeTotal"])


if __name__ == "__main__":
    main()
