// The lanes' split (points on the lanes, the row's online group over d)
// beside a softmax over the points that depends on no dimension of the row
// (w's max and sum over n): each block would hold a part of it, which no
// meet merges, so the row is one block's (no workspace). From
// `kernel lanes(k: f32[d, n], v: f32[d, n], w: f32[n]) -> f32[n] { return
// sum(exp(sum(k, n) - amax(sum(k, n), d)) * (v - log(sum(exp(w - amax(w,
// n)), n))), d); }`.
module {
  ew.kernel @lanes(%arg0: !ew.tensor<[d, n], f32>, %arg1: !ew.tensor<[d, n], f32>, %arg2: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.reduce %arg0 over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[d, n], f32> to !ew.tensor<[d], f32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %1 = ew.reduce %0 over ["d"] init 0xFF800000 : f32 : !ew.tensor<[d], f32> to f32 {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.max %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %2 = ew.sub %0, %1 : !ew.tensor<[d], f32>, f32
    %3 = ew.exp %2 : !ew.tensor<[d], f32>
    %4 = ew.broadcast %3 : <[d], f32> to <[d, n], f32>
    %5 = ew.reduce %arg2 over ["n"] init 0xFF800000 : f32 : !ew.tensor<[n], f32> to f32 {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.max %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %6 = ew.sub %arg2, %5 : !ew.tensor<[n], f32>, f32
    %7 = ew.exp %6 : !ew.tensor<[n], f32>
    %8 = ew.reduce %7 over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[n], f32> to f32 {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    %9 = ew.log %8 : f32
    %10 = ew.sub %arg1, %9 : !ew.tensor<[d, n], f32>, f32
    %11 = ew.mul %4, %10 : !ew.tensor<[d, n], f32>, !ew.tensor<[d, n], f32>
    %12 = ew.reduce %11 over ["d"] init 0.000000e+00 : f32 : !ew.tensor<[d, n], f32> to !ew.tensor<[n], f32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %13 = ew.add %arg3, %arg4 : f32, f32
      ew.yield %13 : f32
    }
    ew.return %12 : !ew.tensor<[n], f32>
  }
}

