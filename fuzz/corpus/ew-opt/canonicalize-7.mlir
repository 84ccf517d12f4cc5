

ew.kernel @fold_involutions_and_logic(%x: tensor<?xf32>, %p: tensor<?xi1>, %s: i1)
    -> (tensor<?xf32>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %t = ew.constant true
  %f = ew.constant false
  %n0 = ew.neg %x : tensor<?xf32>
  %n1 = ew.neg %n0 : tensor<?xf32>
  %b0 = ew.not %p : tensor<?xi1>
  %b1 = ew.not %b0 : tensor<?xi1>
  %a0 = ew.and %t, %p : i1, tensor<?xi1>
  %o0 = ew.or %p, %f : tensor<?xi1>, i1
  %a1 = ew.and %s, %f : i1, i1
  %o1 = ew.or %t, %s : i1, i1
  %a2 = ew.and %p, %f : tensor<?xi1>, i1
  %nt = ew.not %f : i1
  ew.return %n1, %b1, %a0, %o0, %a1, %o1, %a2, %nt : tensor<?xf32>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, i1, i1, tensor<?xi1>, i1
}

