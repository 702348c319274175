; A bad pattern is a compile error that names the option it came from and
; the problem, whether given as an option or in the environment.
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-exclude='sp_(' -disable-output %s 2>&1 | FileCheck %s --check-prefix=CL
; RUN: env SPINEL_PROFILE_INCLUDE='[z-a]' not %opt -load-pass-plugin %plugin -passes=spinelprof -disable-output %s 2>&1 | FileCheck %s --check-prefix=ENV
; CL: error: spinelprof: invalid regular expression 'sp_(' in -spinelprof-exclude: parentheses not balanced
; ENV: error: spinelprof: invalid regular expression '[z-a]' in SPINEL_PROFILE_INCLUDE: invalid character range

define void @f() {
  ret void
}
