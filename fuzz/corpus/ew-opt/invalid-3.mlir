ew.kernel @tensor_result_of_scalars(%x: !ew.tensor<[n], f32>, %s: f32) -> !ew.tensor<[n], f32> {
  %0 = "ew.sub"(%s, %s) : (f32, f32) -> !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
