ew.kernel @fold_int_and_neg(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  %a = ew.constant 3 : i32
  %b = ew.constant 4 : i32
  %s = ew.add %a, %b : i32, i32
  %n = ew.neg %s : i32
  %r = ew.add %x, %n : !ew.tensor<[n], i32>, i32
  ew.return %r : !ew.tensor<[n], i32>
}
