// A row's sum of an unsigned tensor (ewc-run --emit mlir of
// `u16(x) + u16(sum(u32(x), n))` for x: u8[m, n]): its resident row loads
// u8 elements, signless once loaded.
module {
  ew.kernel @rownorm_u8(%arg0: !ew.tensor<[m, n], ui8>) -> !ew.tensor<[m, n], ui16> {
    %0 = ew.cast %arg0 : !ew.tensor<[m, n], ui8> to !ew.tensor<[m, n], ui16>
    %1 = ew.cast %arg0 : !ew.tensor<[m, n], ui8> to !ew.tensor<[m, n], ui32>
    %2 = ew.reduce %1 over ["n"] init 0 : ui32 : !ew.tensor<[m, n], ui32> to !ew.tensor<[m], ui32> {
    ^bb0(%arg1: ui32, %arg2: ui32):
      %6 = ew.add %arg1, %arg2 : ui32, ui32
      ew.yield %6 : ui32
    }
    %3 = ew.cast %2 : !ew.tensor<[m], ui32> to !ew.tensor<[m], ui16>
    %4 = ew.broadcast %3 : <[m], ui16> to <[m, n], ui16>
    %5 = ew.add %0, %4 : !ew.tensor<[m, n], ui16>, !ew.tensor<[m, n], ui16>
    ew.return %5 : !ew.tensor<[m, n], ui16>
  }
}
