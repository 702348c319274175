#!/usr/bin/env python3
"""Prints an IR function with N frame pushes and their pops
(nested-depths.ll):

  nested_pushes.py N            @nested_N: one block, each push inside the
                                one before
  nested_pushes.py N siblings   @siblings_N: one frame after another, each
                                in its own block, with a call inside
"""
import sys

n = int(sys.argv[1])
siblings = sys.argv[2:] == ['siblings']
print('@desc = private constant i8 0')
print('declare i32 @__spinelprof_marker_push(ptr)')
print('declare void @__spinelprof_marker_pop(i32)')
print('declare void @work()')
if siblings:
    print(f'define void @siblings_{n}() {{')
    for i in range(n):
        print(f'b{i}:')
        print(f'  %d{i} = call i32 @__spinelprof_marker_push(ptr @desc)')
        print('  call void @work()')
        print(f'  call void @__spinelprof_marker_pop(i32 %d{i})')
        print(f'  br label %b{i + 1}')
    print(f'b{n}:')
else:
    print(f'define void @nested_{n}() {{')
    for i in range(n):
        print(f'  %d{i} = call i32 @__spinelprof_marker_push(ptr @desc)')
    for i in reversed(range(n)):
        print(f'  call void @__spinelprof_marker_pop(i32 %d{i})')
print('  ret void')
print('}')
