// A value that the pass's elements share, reduced over exactly the lanes'
// points (convert-ew-to-gpu.mlir, LANEHOIST), from `kernel hoisted(a: f32[n,
// d, rows], w: f32[n, d, rows], v: f32[d]) -> f32[n, d] { return sum(exp(sum(a,
// d) - amax(sum(a, d), rows)) * (w / mean(v, d)), rows); }`: rows on the
// warps, d on the lanes. The pass that fits alone (ew.lane_pass = 2), the
// variant the GPU ran (ewc-fuzz --seed 9152, program 400000268).
module {
  ew.kernel @hoisted(%arg0: !ew.tensor<[n, d, rows], f32>, %arg1: !ew.tensor<[n, d, rows], f32>, %arg2: !ew.tensor<[d], f32>) -> !ew.tensor<[n, d], f32> attributes {ew.lane_pass = 2 : i64} {
    %0 = ew.reduce %arg0 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[n, d, rows], f32> to !ew.tensor<[n, rows], f32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %1 = ew.reduce %0 over ["rows"] init 0xFF800000 : f32 : !ew.tensor<[n, rows], f32> to !ew.tensor<[n], f32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.max %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %2 = ew.broadcast %1 : <[n], f32> to <[n, rows], f32>
    %3 = ew.sub %0, %2 : !ew.tensor<[n, rows], f32>, !ew.tensor<[n, rows], f32>
    %4 = ew.exp %3 : !ew.tensor<[n, rows], f32>
    %5 = ew.broadcast %4 : <[n, rows], f32> to <[n, d, rows], f32>
    %6 = ew.reduce %arg2 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[d], f32> to f32 {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %7 = ew.size "d" : i64
    %8 = ew.cast %7 : i64 to f32
    %9 = ew.div %6, %8 : f32, f32
    %10 = ew.div %arg1, %9 : !ew.tensor<[n, d, rows], f32>, f32
    %11 = ew.mul %5, %10 : !ew.tensor<[n, d, rows], f32>, !ew.tensor<[n, d, rows], f32>
    %12 = ew.reduce %11 over ["rows"] init 0.000000e+00 : f32 : !ew.tensor<[n, d, rows], f32> to !ew.tensor<[n, d], f32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    ew.return %12 : !ew.tensor<[n, d], f32>
  }
}
