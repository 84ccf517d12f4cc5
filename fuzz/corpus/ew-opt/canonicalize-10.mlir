ew.kernel @fold_cast_chains(%b: !ew.tensor<[n], bf16>, %h: !ew.tensor<[n], f16>, %x: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  %0 = ew.cast %b : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %1 = ew.cast %0 : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %2 = ew.cast %h : !ew.tensor<[n], f16> to !ew.tensor<[n], f32>
  %3 = ew.cast %2 : !ew.tensor<[n], f32> to !ew.tensor<[n], f64>
  %4 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
  %5 = ew.cast %4 : !ew.tensor<[n], bf16> to !ew.tensor<[n], f32>
  %6 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], i32>
  %7 = ew.cast %6 : !ew.tensor<[n], i32> to !ew.tensor<[n], f32>
  %8 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], f32>
  ew.return %1, %3, %5, %7, %8 : !ew.tensor<[n], bf16>, !ew.tensor<[n], f64>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
}
