; A symbol map that cannot be used fails the compile with a message naming
; the file, the position when the JSON parser gives one, and the problem.
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-syntax.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=SYNTAX
; SYNTAX: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-syntax.json:3:19: Expected : after object key

; RUN: env SPINEL_PROFILE_SYMBOLS=%S/Inputs/no-such-map.json not %opt -load-pass-plugin %plugin -passes=spinelprof -disable-output %s 2>&1 | FileCheck %s --check-prefix=MISSING
; MISSING: error: spinelprof: bad symbol map (SPINEL_PROFILE_SYMBOLS): {{.*}}no-such-map.json: cannot read: No such file or directory

; A conflicting duplicate names both Ruby names, in either shape.
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-conflict-array.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=CONFLICT-ARRAY
; CONFLICT-ARRAY: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-conflict-array.json: entry 1: conflicting names for C symbol "sp_PPU_render_pixel": "Optcarrot::PPU#render_pixel" and "Optcarrot::PPU#draw"
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-conflict-object.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=CONFLICT-OBJECT
; CONFLICT-OBJECT: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-conflict-object.json:3:3: conflicting names for C symbol "sp_PPU_render_pixel": "Optcarrot::PPU#render_pixel" and "Optcarrot::PPU#draw"

; Wrong shapes.
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-shape-top.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=TOP
; TOP: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-shape-top.json: expected a JSON object or array at the top level
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-shape-value.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=VALUE
; VALUE: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-shape-value.json: key "sp_PPU_render_pixel": expected a string (the Ruby name) or an object with "name" or "ruby"
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-shape-record.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=RECORD
; RECORD: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-shape-record.json: entry 0: missing the C symbol ("c", "cname" or "symbol")
; RUN: not %opt -load-pass-plugin %plugin -passes=spinelprof -spinelprof-symbols=%S/Inputs/map-shape-line.json -disable-output %s 2>&1 | FileCheck %s --check-prefix=LINE
; LINE: error: spinelprof: bad symbol map (-spinelprof-symbols): {{.*}}map-shape-line.json: entry 0: "line" must be a non-negative integer

define void @sp_PPU_render_pixel() {
  ret void
}
