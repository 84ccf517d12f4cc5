// A row maximum and a row cumsum, for the reduction mutations of
// ew-test-mutate.mlir.
ew.kernel @reduce(%x: !ew.tensor<[m, n], f32>) -> (!ew.tensor<[m], f32>, !ew.tensor<[m, n], f32>) {
  %mx = ew.reduce %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %c = ew.scan %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %mx, %c : !ew.tensor<[m], f32>, !ew.tensor<[m, n], f32>
}
