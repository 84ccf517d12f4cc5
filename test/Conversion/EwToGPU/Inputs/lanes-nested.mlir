// The lanes' split refused (points n, the row's online group over d): a
// second group over d inside the weight keeps the points (its sums per n),
// which would be computed inside each element by a warp's lanes. From
// test/Integration/Inputs/lanes-nested.ew (`ewc-run --emit mlir`, then
// `ewc-opt -cse`: the two sum(k, n) are one value, as in the pipeline).
module {
  ew.kernel @nested(%arg0: !ew.tensor<[m, d, n], f32>, %arg1: !ew.tensor<[m, d, n], f32>) -> !ew.tensor<[m, n], f32> {
    %0 = ew.reduce %arg0 over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[m, d, n], f32> to !ew.tensor<[m, d], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    %1 = ew.reduce %0 over ["d"] init 0xFF800000 : f32 : !ew.tensor<[m, d], f32> to !ew.tensor<[m], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.max %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    %2 = ew.broadcast %1 : <[m], f32> to <[m, d], f32>
    %3 = ew.sub %0, %2 : !ew.tensor<[m, d], f32>, !ew.tensor<[m, d], f32>
    %4 = ew.exp %3 : !ew.tensor<[m, d], f32>
    %5 = ew.broadcast %4 : <[m, d], f32> to <[m, d, n], f32>
    %6 = ew.reduce %arg1 over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[m, d, n], f32> to !ew.tensor<[m, d], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    %7 = ew.reduce %6 over ["d"] init 0xFF800000 : f32 : !ew.tensor<[m, d], f32> to !ew.tensor<[m], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.max %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    %8 = ew.broadcast %7 : <[m], f32> to <[m, d], f32>
    %9 = ew.sub %6, %8 : !ew.tensor<[m, d], f32>, !ew.tensor<[m, d], f32>
    %10 = ew.exp %9 : !ew.tensor<[m, d], f32>
    %11 = ew.broadcast %10 : <[m, d], f32> to <[m, d, n], f32>
    %12 = ew.mul %11, %arg1 : !ew.tensor<[m, d, n], f32>, !ew.tensor<[m, d, n], f32>
    %13 = ew.reduce %12 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[m, d, n], f32> to !ew.tensor<[m, n], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    %14 = ew.broadcast %13 : <[m, n], f32> to <[m, d, n], f32>
    %15 = ew.div %arg1, %14 : !ew.tensor<[m, d, n], f32>, !ew.tensor<[m, d, n], f32>
    %16 = ew.mul %5, %15 : !ew.tensor<[m, d, n], f32>, !ew.tensor<[m, d, n], f32>
    %17 = ew.reduce %16 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[m, d, n], f32> to !ew.tensor<[m, n], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %18 : f32
    }
    ew.return %17 : !ew.tensor<[m, n], f32>
  }
}

