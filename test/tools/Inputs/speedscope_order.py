#!/usr/bin/env python3
"""usage: speedscope_order.py FILE.json DEPTH

Prints each profile of a speedscope file as one line: its name, unit,
startValue and endValue, then its samples in order as the frame at stack
depth DEPTH (0: the root), consecutive repeats shown once, "(idle)" for an
empty stack and "-" for a stack shorter than DEPTH + 1. So a run that
wrote a log then analysed it reads "... Object#write_log Object#analyse",
and an interleaved one repeats the two. Checks the weights add up to
endValue - startValue, as speedscope lays samples end to end."""
import json
import sys

path, depth = sys.argv[1], int(sys.argv[2])
doc = json.load(open(path))
frames = doc['shared']['frames']
for profile in doc['profiles']:
    phases = []
    for stack in profile['samples']:
        name = ('(idle)' if not stack else
                frames[stack[depth]]['name'] if len(stack) > depth else '-')
        if not phases or phases[-1] != name:
            phases.append(name)
    span = profile['endValue'] - profile['startValue']
    if sum(profile['weights']) != span:
        print(f'speedscope_order: error: {path}: {profile["name"]}: weights add up to '
              f'{sum(profile["weights"])}, endValue - startValue is {span}', file=sys.stderr)
        sys.exit(1)
    print(f'{profile["name"]} [{profile["unit"]} {profile["startValue"]}..'
          f'{profile["endValue"]}]: {" ".join(phases)}')
