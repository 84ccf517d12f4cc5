ew.kernel @cse(%x: !ew.tensor<[n], f32>, %c: !ew.tensor<[n], i32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.exp %x : !ew.tensor<[n], f32>
  %1 = ew.exp %x : !ew.tensor<[n], f32>
  %2 = ew.cast %c : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  %3 = ew.cast %c : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  ew.return %0, %1, %2, %3 : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}
