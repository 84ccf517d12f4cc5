ew.kernel @fold_int_div() -> (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>) {
  %m7 = ew.constant -7 : i32
  %two = ew.constant 2 : i32
  %zero = ew.constant 0 : i32
  %min = ew.constant -2147483648 : i32
  %m1 = ew.constant -1 : i32
  %0 = ew.div %m7, %two : i32, i32
  %1 = ew.div %m7, %zero : i32, i32
  %2 = ew.div %min, %m1 : i32, i32
  %3 = ew.div %zero, %zero : i32, i32
  ew.return %0, %1, %2, %3 : i32, i32, i32, i32
}
