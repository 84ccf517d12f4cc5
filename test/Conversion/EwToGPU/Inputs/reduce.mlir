// Reductions and scans on the GPU (convert-ew-to-gpu.mlir, REDUCE): a row
// reduction and a scan along the contiguous dimension get the rows schedule
// (a warp per row); a column reduction and a scan across rows the
// grid-stride loop, a thread per point.
ew.kernel @rownorm(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %s = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %sb = ew.broadcast %s : <[m], f32> to <[m, n], f32>
  %y = ew.div %x, %sb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %y : !ew.tensor<[m, n], f32>
}
ew.kernel @colnorm(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %s = ew.reduce %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %sb = ew.broadcast %s : <[n], f32> to <[m, n], f32>
  %y = ew.div %x, %sb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %y : !ew.tensor<[m, n], f32>
}
ew.kernel @anyrow(%x: !ew.tensor<[m, n], i1>) -> !ew.tensor<[m], i1> {
  %s = ew.reduce %x over ["n"] init false : !ew.tensor<[m, n], i1> to !ew.tensor<[m], i1> {
  ^bb0(%a: i1, %b: i1):
    %r = ew.or %a, %b : i1, i1
    ew.yield %r : i1
  }
  ew.return %s : !ew.tensor<[m], i1>
}
ew.kernel @cumsum(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %c = ew.scan %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %c : !ew.tensor<[m, n], f32>
}
ew.kernel @colcumsum(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %c = ew.scan %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %c : !ew.tensor<[m, n], f32>
}
