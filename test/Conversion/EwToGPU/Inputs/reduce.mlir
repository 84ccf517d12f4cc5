// A reduction and a scan, which convert-ew-to-gpu refuses (convert-ew-to-gpu.mlir).
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
ew.kernel @cumsum(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  %c = ew.scan %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %c : !ew.tensor<[m, n], f32>
}
