// A bf16 row reduction (convert-ew-to-gpu.mlir, BF16): the loads in flight a
// lane are counted in bytes (ewc/ABI/RowAccess.h), so 16 bf16 elements per
// iteration of the lanes' reduction and 8 points per iteration of the row.
ew.kernel @rowscale(%x: !ew.tensor<[m, n], bf16>) -> !ew.tensor<[m, n], bf16> {
  %e = ew.cast %x : !ew.tensor<[m, n], bf16> to !ew.tensor<[m, n], f32>
  %s = ew.reduce %e over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  %sb = ew.broadcast %s : <[m], f32> to <[m, n], f32>
  %y = ew.div %e, %sb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  %z = ew.cast %y : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], bf16>
  ew.return %z : !ew.tensor<[m, n], bf16>
}
