ew.kernel @wrong_result_element(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %0 = "ew.add"(%x, %x) : (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) -> !ew.tensor<[n], f64>
  ew.return %x : !ew.tensor<[n], f32>
}
