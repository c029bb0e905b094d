;; The bootstrap's hottest loop, in WebAssembly with 128-bit SIMD: for each iteration, add up the
;; four interleaved base-column values of the multiset drawn in each cell, in cell order (the same
;; order, hence the same bits, as the JavaScript loop in core.ts), and store the four sums.
;; Built into sum4-wasm.ts by scripts/gen-wasm.ts.
(module
  (memory (export "memory") 1)
  (func (export "sum4")
    (param $picked i32) (param $lookup i32)
    (param $o0 i32) (param $o1 i32) (param $o2 i32) (param $o3 i32)
    (param $B i32) (param $C i32)
    (local $it i32) (local $p i32) (local $end i32) (local $addr i32) (local $at i32)
    (local $a v128) (local $b v128)
    (local.set $p (local.get $picked))
    (block $done
      (loop $iterations
        (br_if $done (i32.ge_u (local.get $it) (local.get $B)))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $b (v128.const f64x2 0 0))
        (local.set $end (i32.add (local.get $p) (i32.shl (local.get $C) (i32.const 2))))
        (block $cells_done
          (loop $cells
            (br_if $cells_done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $addr (i32.add (local.get $lookup) (i32.shl (i32.load (local.get $p)) (i32.const 5))))
            (local.set $a (f64x2.add (local.get $a) (v128.load (local.get $addr))))
            (local.set $b (f64x2.add (local.get $b) (v128.load offset=16 (local.get $addr))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $cells)))
        (local.set $at (i32.shl (local.get $it) (i32.const 3)))
        (f64.store (i32.add (local.get $o0) (local.get $at)) (f64x2.extract_lane 0 (local.get $a)))
        (f64.store (i32.add (local.get $o1) (local.get $at)) (f64x2.extract_lane 1 (local.get $a)))
        (f64.store (i32.add (local.get $o2) (local.get $at)) (f64x2.extract_lane 0 (local.get $b)))
        (f64.store (i32.add (local.get $o3) (local.get $at)) (f64x2.extract_lane 1 (local.get $b)))
        (local.set $it (i32.add (local.get $it) (i32.const 1)))
        (br $iterations))))
)
