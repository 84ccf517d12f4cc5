ew.kernel @leaky_relu(%x: !ew.tensor<[n], f32>, %slope: f32 {ew.default = 0.01 : f32}) -> !ew.tensor<[n], f32> {
  %zero = ew.constant 0.0 : f32
  %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
  %neg = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
  %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %r : !ew.tensor<[n], f32>
}

ew.kernel @arith(%a: !ew.tensor<[n], f64>, %b: !ew.tensor<[n], f64>, %c: f64) -> (!ew.tensor<[n], f64>, !ew.tensor<[n], f64>) {
  %0 = ew.add %a, %b : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %1 = ew.sub %0, %c : !ew.tensor<[n], f64>, f64
  %2 = ew.div %c, %1 : f64, !ew.tensor<[n], f64>
  %3 = ew.neg %2 : !ew.tensor<[n], f64>
  ew.return %3, %0 : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
}

ew.kernel @types(%i: !ew.tensor<[n], i32>, %l: !ew.tensor<[n], i64>, %h: !ew.tensor<[n], f16>, %bf: !ew.tensor<[n], bf16>,
                 %flag: i1 {ew.default = true}, %k: i64 {ew.default = -3 : i64})
    -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>) {
  %0 = ew.mul %i, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %1 = ew.add %l, %k : !ew.tensor<[n], i64>, i64
  %2 = ew.neg %h : !ew.tensor<[n], f16>
  %c = ew.constant 1.5 : bf16
  %3 = ew.mul %bf, %c : !ew.tensor<[n], bf16>, bf16
  %4 = ew.cmp lt, %i, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %5 = ew.cmp ne, %4, %flag : !ew.tensor<[n], i1>, i1
  ew.return %0, %1, %2, %3, %5 : !ew.tensor<[n], i32>, !ew.tensor<[n], i64>, !ew.tensor<[n], f16>, !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
}

ew.kernel @predicates(%a: !ew.tensor<[n], i32>, %b: i32) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %0 = ew.cmp eq, %a, %b : !ew.tensor<[n], i32>, i32
  %1 = ew.cmp ne, %a, %b : !ew.tensor<[n], i32>, i32
  %2 = ew.cmp lt, %a, %b : !ew.tensor<[n], i32>, i32
  %3 = ew.cmp le, %a, %b : !ew.tensor<[n], i32>, i32
  %4 = ew.cmp gt, %a, %b : !ew.tensor<[n], i32>, i32
  %5 = ew.cmp ge, %a, %b : !ew.tensor<[n], i32>, i32
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}

ew.kernel @scalars(%x: !ew.tensor<[n], f32>, %a: f32, %b: f32) -> !ew.tensor<[n], f32> {
  %p = ew.mul %a, %b : f32, f32
  %c = ew.cmp gt, %x, %p : !ew.tensor<[n], f32>, f32
  %w = ew.where %c, %p, %x : !ew.tensor<[n], i1>, f32, !ew.tensor<[n], f32>
  ew.return %w : !ew.tensor<[n], f32>
}

ew.kernel @int_and_float_ops(%i: !ew.tensor<[n], i32>, %k: i32, %f: !ew.tensor<[n], f64>)
    -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f64>) {
  %0 = ew.div %i, %k : !ew.tensor<[n], i32>, i32
  %1 = ew.max %0, %i : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  %2 = ew.abs %1 : !ew.tensor<[n], i32>
  %3 = ew.min %k, %2 : i32, !ew.tensor<[n], i32>
  %4 = ew.max %f, %f : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  %5 = ew.abs %4 : !ew.tensor<[n], f64>
  %6 = ew.min %5, %f : !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
  ew.return %2, %3, %5, %6 : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], f64>, !ew.tensor<[n], f64>
}

ew.kernel @logic(%p: !ew.tensor<[n], i1>, %q: !ew.tensor<[n], i1>, %flag: i1) -> !ew.tensor<[n], i1> {
  %0 = ew.and %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %1 = ew.or %0, %flag : !ew.tensor<[n], i1>, i1
  %2 = ew.not %1 : !ew.tensor<[n], i1>
  ew.return %2 : !ew.tensor<[n], i1>
}

ew.kernel @math(%x: !ew.tensor<[n], f32>, %s: f64) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f64>) {
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.log %0 : !ew.tensor<[n], f32>
  %2 = ew.sqrt %1 : !ew.tensor<[n], f32>
  %3 = ew.rsqrt %2 : !ew.tensor<[n], f32>
  %4 = ew.tanh %3 : !ew.tensor<[n], f32>
  %5 = ew.sigmoid %4 : !ew.tensor<[n], f32>
  %6 = ew.erf %5 : !ew.tensor<[n], f32>
  %7 = ew.exp %s : f64
  ew.return %6, %7 : !ew.tensor<[n], f32>, f64
}

ew.kernel @casts(%x: !ew.tensor<[n], bf16>, %n: i64) -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], i1>) {
  %0 = ew.cast %x : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %1 = ew.cast %n : i64 to f32
  %2 = ew.mul %0, %1 : !ew.tensor<[n], f32>, f32
  %3 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %4 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], i1>
  ew.return %3, %4 : !ew.tensor<[n], bf16>, !ew.tensor<[n], i1>
}

ew.kernel @fill(%x: !ew.tensor<[n], i64>, %k: i64) -> (!ew.tensor<[n], i64>, !ew.tensor<[n], i64>) {
  ew.return %x, %k : !ew.tensor<[n], i64>, i64
}

ew.kernel @dims(%x: !ew.tensor<[..., m, n], f32>, %b: !ew.tensor<[n], f32>, %q: !ew.tensor<["m n"], i1>)
    -> (!ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>) {
  %bb = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[..., m, n], f32>
  %r = ew.add %x, %bb : !ew.tensor<[..., m, n], f32>, !ew.tensor<[..., m, n], f32>
  %i = ew.index "m" : !ew.tensor<[m], i64>
  %s = ew.size "n" : i64
  %is = ew.mul %i, %s : !ew.tensor<[m], i64>, i64
  %t = ew.broadcast %is : <[m], i64> to <[n, m], i64>
  ew.return %r, %t, %q : !ew.tensor<[..., m, n], f32>, !ew.tensor<[n, m], i64>, !ew.tensor<["m n"], i1>
}

ew.kernel @batch_only(%x: !ew.tensor<[...], bf16>) -> (!ew.tensor<[...], bf16>, !ew.tensor<[k], i64>) {
  %k = ew.index "k" : !ew.tensor<[k], i64>
  ew.return %x, %k : !ew.tensor<[...], bf16>, !ew.tensor<[k], i64>
}
