// Online groups (CombineLoops.cpp; convert-ew-to-gpu.mlir, ONLINE): the max
// and the sum of exponentials it scales, in one pass of the rows schedule.
// @lse is logsumexp; @weighted's sum has another factor (attention's
// `sum(p * v, s)`); @shifted's exponential is not of its max's operand, so
// it keeps two passes.
ew.kernel @lse(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m], f32> attributes {ew.rows_block_size = 512 : i64} {
  %mx = ew.reduce %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %mb = ew.broadcast %mx : <[m], f32> to <[m, n], f32>
  %d = ew.sub %x, %mb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %e = ew.exp %d : !ew.tensor<[m, n], f32>
  %s = ew.reduce %e over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %l = ew.log %s : !ew.tensor<[m], f32>
  %y = ew.add %l, %mx : !ew.tensor<[m], f32>, !ew.tensor<[m], f32>
  ew.return %y : !ew.tensor<[m], f32>
}
ew.kernel @weighted(%x: !ew.tensor<[m, n], f32>, %w: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m], f32> attributes {ew.rows_block_size = 512 : i64} {
  %mx = ew.reduce %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %mb = ew.broadcast %mx : <[m], f32> to <[m, n], f32>
  %d = ew.sub %x, %mb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %e = ew.exp %d : !ew.tensor<[m, n], f32>
  %p = ew.mul %e, %w : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %s = ew.reduce %p over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %s : !ew.tensor<[m], f32>
}
ew.kernel @shifted(%x: !ew.tensor<[m, n], f32>, %w: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m], f32> attributes {ew.rows_block_size = 512 : i64} {
  %mx = ew.reduce %x over ["n"] init 0xFF800000 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.max %a, %b : f32, f32
    ew.yield %r : f32
  }
  %mb = ew.broadcast %mx : <[m], f32> to <[m, n], f32>
  %d = ew.sub %w, %mb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %e = ew.exp %d : !ew.tensor<[m, n], f32>
  %s = ew.reduce %e over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %s : !ew.tensor<[m], f32>
}
