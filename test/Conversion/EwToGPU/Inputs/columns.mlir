// Reductions across rows on the GPU (convert-ew-to-gpu.mlir, COLUMNS): a
// kernel whose one nest's points are its reductions' keys gets the columns
// schedule (ColumnAccess.h); one whose reductions read another's value, or
// whose points are more than the keys, keeps the grid-stride loop.
ew.kernel @colsum(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[n], f32> {
  %s = ew.reduce %x over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %s : !ew.tensor<[n], f32>
}
ew.kernel @colrange(%x: !ew.tensor<[m, n], f32>, %w: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %hi = ew.reduce %x over ["m"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %lo = ew.reduce %x over ["m"] init 0x7F800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.min %a, %b : f32, f32
    ew.yield %r : f32
  }
  %d = ew.sub %hi, %lo : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  %y = ew.mul %d, %w : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %y : !ew.tensor<[n], f32>
}
ew.kernel @colany(%x: !ew.tensor<[m, n], i1>) -> !ew.tensor<[n], i1> {
  %s = ew.reduce %x over ["m"] init false : !ew.tensor<[m, n], i1> to !ew.tensor<[n], i1> {
  ^bb0(%a: i1, %b: i1):
    %r = ew.or %a, %b : i1, i1
    ew.yield %r : i1
  }
  ew.return %s : !ew.tensor<[n], i1>
}
ew.kernel @collse(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[n], f32> {
  %mx = ew.reduce %x over ["m"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %mb = ew.broadcast %mx : <[n], f32> to <[m, n], f32>
  %z = ew.sub %x, %mb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %s = ew.reduce %z over ["m"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %s : !ew.tensor<[n], f32>
}
