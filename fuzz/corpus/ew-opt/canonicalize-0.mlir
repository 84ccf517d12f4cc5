ew.kernel @fold_scalars(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %a = ew.constant 3.0 : f32
  %b = ew.constant 2.0 : f32
  %s = ew.sub %a, %b : f32, f32
  %p = ew.mul %s, %b : f32, f32
  %q = ew.div %p, %b : f32, f32
  %r = ew.mul %x, %q : !ew.tensor<[n], f32>, f32
  ew.return %r : !ew.tensor<[n], f32>
}
