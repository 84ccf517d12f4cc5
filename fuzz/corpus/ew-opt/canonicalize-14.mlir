ew.kernel @cse_dims(%b: !ew.tensor<[n], f32>)
    -> (!ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, !ew.tensor<[m], i64>, !ew.tensor<[m], i64>) {
  %0 = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %1 = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
  %2 = ew.index "n" : !ew.tensor<[n], i64>
  %3 = ew.index "n" : !ew.tensor<[n], i64>
  %4 = ew.size "m" : i64
  %5 = ew.size "m" : i64
  ew.return %0, %1, %2, %3, %4, %5 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>, !ew.tensor<[n], i64>, !ew.tensor<[n], i64>, i64, i64
}
