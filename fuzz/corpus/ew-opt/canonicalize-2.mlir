ew.kernel @fold_cmp(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %nan = ew.constant 0x7FC00000 : f32
  %one = ew.constant 1.0 : f32
  %eq = ew.cmp eq, %nan, %nan : f32, f32
  %ne = ew.cmp ne, %nan, %one : f32, f32
  %a = ew.cmp lt, %x, %one : !ew.tensor<[n], f32>, f32
  %b = ew.cmp gt, %x, %one : !ew.tensor<[n], f32>, f32
  %r0 = ew.where %eq, %a, %b : i1, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  %r1 = ew.where %ne, %a, %b : i1, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
  ew.return %r0, %r1 : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
}
