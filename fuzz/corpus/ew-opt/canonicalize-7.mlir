ew.kernel @fold_involutions_and_logic(%x: !ew.tensor<[n], f32>, %p: !ew.tensor<[n], i1>, %s: i1)
    -> (!ew.tensor<[n], f32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>) {
  %t = ew.constant true
  %f = ew.constant false
  %n0 = ew.neg %x : !ew.tensor<[n], f32>
  %n1 = ew.neg %n0 : !ew.tensor<[n], f32>
  %b0 = ew.not %p : !ew.tensor<[n], i1>
  %b1 = ew.not %b0 : !ew.tensor<[n], i1>
  %a0 = ew.and %t, %p : i1, !ew.tensor<[n], i1>
  %o0 = ew.or %p, %f : !ew.tensor<[n], i1>, i1
  %a1 = ew.and %s, %f : i1, i1
  %o1 = ew.or %t, %s : i1, i1
  %a2 = ew.and %p, %f : !ew.tensor<[n], i1>, i1
  %nt = ew.not %f : i1
  ew.return %n1, %b1, %a0, %o0, %a1, %o1, %a2, %nt : !ew.tensor<[n], f32>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, !ew.tensor<[n], i1>, i1, i1, !ew.tensor<[n], i1>, i1
}
