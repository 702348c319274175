; spinelprof-self-tail takes the dominator tree from the function analysis
; manager and keeps it right when it folds a return block into a self tail
; call's block: the tree printed after the pass is the one it used (no
; second DominatorTreeAnalysis run) and has %ret under %b, its one
; predecessor left, as a tree computed afresh has.
; RUN: %opt -load-pass-plugin %plugin -disable-output -debug-pass-manager \
; RUN:   -passes='spinelprof-markers,function(require<domtree>,spinelprof-self-tail,print<domtree>)' %s 2>&1 \
; RUN:   | FileCheck %s --check-prefixes=CHECK,KEPT
; RUN: %opt -load-pass-plugin %plugin -disable-output \
; RUN:   -passes='spinelprof-markers,function(spinelprof-self-tail,invalidate<domtree>,print<domtree>)' %s 2>&1 \
; RUN:   | FileCheck %s

; KEPT:      Running analysis: DominatorTreeAnalysis on f
; KEPT-NOT:  Running analysis: DominatorTreeAnalysis
; CHECK:     DominatorTree for function: f
; CHECK:       [1] %entry
; CHECK-NEXT:    [2] %a
; CHECK-NEXT:    [2] %b
; CHECK-NEXT:      [3] %ret
; CHECK-NEXT: Roots: %entry
define i64 @f(i64 %n, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %n1 = sub i64 %n, 1
  %r = call i64 @f(i64 %n1, i1 %c)
  br label %ret
b:
  br label %ret
ret:
  %v = phi i64 [ %r, %a ], [ %n, %b ]
  ret i64 %v
}
