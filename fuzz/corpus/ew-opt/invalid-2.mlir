ew.kernel @scalar_result_of_tensor(%x: !ew.tensor<[n], f32>, %s: f32) -> !ew.tensor<[n], f32> {
  %0 = "ew.add"(%x, %s) : (!ew.tensor<[n], f32>, f32) -> f32
  ew.return %x : !ew.tensor<[n], f32>
}
