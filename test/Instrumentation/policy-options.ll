; Include/exclude patterns (POSIX ERE, whole C name) from -spinelprof-*
; options or from SPINEL_PROFILE_* variables, which clang -fpass-plugin
; users need because clang parses -mllvm before it loads the plugin. The
; command-line option wins over the variable; exclude wins over include.

; Default: every defined function.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=ALL
; ALL-DAG: @__spinelprof_desc.sp_Foo_bar =
; ALL-DAG: @__spinelprof_desc.sp_Foo_baz =
; ALL-DAG: @__spinelprof_desc.sp_str_len =
; ALL-DAG: @__spinelprof_desc.main =

; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-include='sp_Foo_.*' -S %s | FileCheck %s --check-prefix=FOO
; RUN: env SPINEL_PROFILE_INCLUDE='sp_Foo_.*' %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=FOO
; FOO-NOT: @__spinelprof_desc.main
; FOO-NOT: @__spinelprof_desc.sp_str_len
; FOO-DAG: @__spinelprof_desc.sp_Foo_bar =
; FOO-DAG: @__spinelprof_desc.sp_Foo_baz =
; FOO-NOT: @__spinelprof_desc.main
; FOO-NOT: @__spinelprof_desc.sp_str_len

; The pattern must match the whole name: "sp_Foo" alone selects nothing.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-include='sp_Foo' -S %s | FileCheck %s --check-prefix=NONE
; NONE-NOT: @__spinelprof_desc
; NONE-NOT: @__spinelprof_stack
; NONE-NOT: spinelprof-instrumented

; Exclude wins over include.
; RUN: %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-include='sp_.*' -spinelprof-exclude='sp_str_.*|.*_baz' -S %s | FileCheck %s --check-prefix=BOTH
; RUN: env SPINEL_PROFILE_INCLUDE='sp_.*' SPINEL_PROFILE_EXCLUDE='sp_str_.*|.*_baz' %opt -load-pass-plugin %plugin -passes=spinelprof -S %s | FileCheck %s --check-prefix=BOTH
; BOTH-NOT: @__spinelprof_desc.main
; BOTH-NOT: @__spinelprof_desc.sp_Foo_baz
; BOTH-NOT: @__spinelprof_desc.sp_str_len
; BOTH: @__spinelprof_desc.sp_Foo_bar =
; BOTH-NOT: @__spinelprof_desc.main
; BOTH-NOT: @__spinelprof_desc.sp_Foo_baz
; BOTH-NOT: @__spinelprof_desc.sp_str_len

; The command-line option wins over the environment.
; RUN: env SPINEL_PROFILE_EXCLUDE='sp_Foo_.*' %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-exclude='main' -S %s | FileCheck %s --check-prefix=CLWINS
; CLWINS-NOT: @__spinelprof_desc.main
; CLWINS-DAG: @__spinelprof_desc.sp_Foo_bar =
; CLWINS-DAG: @__spinelprof_desc.sp_Foo_baz =
; CLWINS-DAG: @__spinelprof_desc.sp_str_len =
; CLWINS-NOT: @__spinelprof_desc.main

define void @sp_Foo_bar() {
  ret void
}
define void @sp_Foo_baz() {
  ret void
}
define void @sp_str_len() {
  ret void
}
define i32 @main() {
  ret i32 0
}
