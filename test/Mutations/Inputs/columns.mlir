// A column sum, the columns schedule on the GPU (ColumnAccess.h), for the
// mutations of its split: ew-test-mutate.mlir.
ew.kernel @colsum(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[n], f32> {
  %s = ew.reduce %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %s : !ew.tensor<[n], f32>
}
