#!/usr/bin/env python3
"""Prints an IR function @nested_N with N frame pushes, each inside the one
before, and their pops (nested-depths.ll).

usage: nested_pushes.py N
"""
import sys

n = int(sys.argv[1])
print('@desc = private constant i8 0')
print('declare i32 @__spinelprof_marker_push(ptr)')
print('declare void @__spinelprof_marker_pop(i32)')
print(f'define void @nested_{n}() {{')
for i in range(n):
    print(f'  %d{i} = call i32 @__spinelprof_marker_push(ptr @desc)')
for i in reversed(range(n)):
    print(f'  call void @__spinelprof_marker_pop(i32 %d{i})')
print('  ret void')
print('}')
