

ew.kernel @fold_int_and_neg(%x: tensor<?xi32>) -> tensor<?xi32> {
  %a = ew.constant 3 : i32
  %b = ew.constant 4 : i32
  %s = ew.add %a, %b : i32, i32
  %n = ew.neg %s : i32
  %r = ew.add %x, %n : tensor<?xi32>, i32
  ew.return %r : tensor<?xi32>
}

