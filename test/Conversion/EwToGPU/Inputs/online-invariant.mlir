// A softmax-like sum whose `a` is constant along the max's dimension k:
// isinf of an integer tensor, false everywhere once lowered (ewc-fuzz,
// seed 9111, program 133, which crashed ewc-fuzz on an H100).
module {
  ew.kernel @k0(%arg0: !ew.tensor<[k, n], ui32>, %arg1: !ew.tensor<[n, k], f16>) -> !ew.tensor<[n], f16> {
    %0 = ew.isinf %arg0 : !ew.tensor<[k, n], ui32>
    %1 = ew.cast %0 : !ew.tensor<[k, n], i1> to !ew.tensor<[k, n], f32>
    %2 = ew.reduce %1 over ["n"] init 0.000000e+00 : f32 : !ew.tensor<[k, n], f32> to !ew.tensor<[k], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %12 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %12 : f32
    }
    %3 = ew.reduce %2 over ["k"] init 0xFF800000 : f32 : !ew.tensor<[k], f32> to f32 {
    ^bb0(%arg2: f32, %arg3: f32):
      %12 = ew.max %arg2, %arg3 : f32, f32
      ew.yield %12 : f32
    }
    %4 = ew.sub %2, %3 : !ew.tensor<[k], f32>, f32
    %5 = ew.exp %4 : !ew.tensor<[k], f32>
    %6 = ew.broadcast %5 : <[k], f32> to <[k, n], f32>
    %7 = ew.cast %arg1 : !ew.tensor<[n, k], f16> to !ew.tensor<[n, k], f32>
    %8 = ew.broadcast %7 : <[n, k], f32> to <[k, n], f32>
    %9 = ew.mul %6, %8 : !ew.tensor<[k, n], f32>, !ew.tensor<[k, n], f32>
    %10 = ew.reduce %9 over ["k"] init 0.000000e+00 : f32 : !ew.tensor<[k, n], f32> to !ew.tensor<[n], f32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %12 = ew.add %arg2, %arg3 : f32, f32
      ew.yield %12 : f32
    }
    %11 = ew.cast %10 : !ew.tensor<[n], f32> to !ew.tensor<[n], f16>
    ew.return %11 : !ew.tensor<[n], f16>
  }
}
