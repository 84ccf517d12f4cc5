// Points on the lanes (RowLoops.cpp, buildLanePointsLoop; convert-ew-to-gpu.mlir,
// LANES): @attention is kernels/decode_attention.ew in f32, whose scores
// sum(q * k, d) inside sum(p * v, s) reduce the points d that the sum keeps;
// @unscored's weights have no reduction over d inside: a team per point.
ew.kernel @attention(%arg0: !ew.tensor<[b, h, d], f32>, %arg1: !ew.tensor<[b, h, s, d], f32>, %arg2: !ew.tensor<[b, h, s, d], f32>, %arg3: f32) -> !ew.tensor<[b, h, d], f32> {
  %0 = ew.broadcast %arg0 : <[b, h, d], f32> to <[b, h, d, s], f32>
  %1 = ew.broadcast %arg1 : <[b, h, s, d], f32> to <[b, h, d, s], f32>
  %2 = ew.mul %0, %1 : !ew.tensor<[b, h, d, s], f32>, !ew.tensor<[b, h, d, s], f32>
  %3 = ew.reduce %2 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[b, h, d, s], f32> to !ew.tensor<[b, h, s], f32> {
  ^bb0(%arg4: f32, %arg5: f32):
    %16 = ew.add %arg4, %arg5 : f32, f32
    ew.yield %16 : f32
  }
  %4 = ew.mul %3, %arg3 : !ew.tensor<[b, h, s], f32>, f32
  %5 = ew.reduce %4 over ["s"] init 0xFF800000 : f32 : !ew.tensor<[b, h, s], f32> to !ew.tensor<[b, h], f32> {
  ^bb0(%arg4: f32, %arg5: f32):
    %16 = ew.max %arg4, %arg5 : f32, f32
    ew.yield %16 : f32
  }
  %6 = ew.broadcast %5 : <[b, h], f32> to <[b, h, s], f32>
  %7 = ew.sub %4, %6 : !ew.tensor<[b, h, s], f32>, !ew.tensor<[b, h, s], f32>
  %8 = ew.exp %7 : !ew.tensor<[b, h, s], f32>
  %9 = ew.broadcast %8 : <[b, h, s], f32> to <[b, h, d, s], f32>
  %10 = ew.broadcast %arg2 : <[b, h, s, d], f32> to <[b, h, d, s], f32>
  %11 = ew.mul %9, %10 : !ew.tensor<[b, h, d, s], f32>, !ew.tensor<[b, h, d, s], f32>
  %12 = ew.reduce %11 over ["s"] init 0.000000e+00 : f32 : !ew.tensor<[b, h, d, s], f32> to !ew.tensor<[b, h, d], f32> {
  ^bb0(%arg4: f32, %arg5: f32):
    %16 = ew.add %arg4, %arg5 : f32, f32
    ew.yield %16 : f32
  }
  %13 = ew.reduce %8 over ["s"] init 0.000000e+00 : f32 : !ew.tensor<[b, h, s], f32> to !ew.tensor<[b, h], f32> {
  ^bb0(%arg4: f32, %arg5: f32):
    %16 = ew.add %arg4, %arg5 : f32, f32
    ew.yield %16 : f32
  }
  %14 = ew.broadcast %13 : <[b, h], f32> to <[b, h, d], f32>
  %15 = ew.div %12, %14 : !ew.tensor<[b, h, d], f32>, !ew.tensor<[b, h, d], f32>
  ew.return %15 : !ew.tensor<[b, h, d], f32>
}
ew.kernel @unscored(%arg0: !ew.tensor<[b, s], f32>, %arg1: !ew.tensor<[b, s, d], f32>) -> !ew.tensor<[b, d], f32> {
  %0 = ew.reduce %arg0 over ["s"] init 0xFF800000 : f32 : !ew.tensor<[b, s], f32> to !ew.tensor<[b], f32> {
  ^bb0(%arg2: f32, %arg3: f32):
    %10 = ew.max %arg2, %arg3 : f32, f32
    ew.yield %10 : f32
  }
  %1 = ew.broadcast %0 : <[b], f32> to <[b, s], f32>
  %2 = ew.sub %arg0, %1 : !ew.tensor<[b, s], f32>, !ew.tensor<[b, s], f32>
  %3 = ew.exp %2 : !ew.tensor<[b, s], f32>
  %4 = ew.broadcast %3 : <[b, s], f32> to <[b, s, d], f32>
  %5 = ew.mul %4, %arg1 : !ew.tensor<[b, s, d], f32>, !ew.tensor<[b, s, d], f32>
  %6 = ew.reduce %5 over ["s"] init 0.000000e+00 : f32 : !ew.tensor<[b, s, d], f32> to !ew.tensor<[b, d], f32> {
  ^bb0(%arg2: f32, %arg3: f32):
    %10 = ew.add %arg2, %arg3 : f32, f32
    ew.yield %10 : f32
  }
  %7 = ew.reduce %3 over ["s"] init 0.000000e+00 : f32 : !ew.tensor<[b, s], f32> to !ew.tensor<[b], f32> {
  ^bb0(%arg2: f32, %arg3: f32):
    %10 = ew.add %arg2, %arg3 : f32, f32
    ew.yield %10 : f32
  }
  %8 = ew.broadcast %7 : <[b], f32> to <[b, d], f32>
  %9 = ew.div %6, %8 : !ew.tensor<[b, d], f32>, !ew.tensor<[b, d], f32>
  ew.return %9 : !ew.tensor<[b, d], f32>
}
