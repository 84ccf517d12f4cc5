// A scan over another scan's values that a result also reads (cummax(x) +
// cumsum(cummax(x)): both scans carried) and two scans side by side, both
// asked for tiles (ew.split_scans): only the second may split its rows
// (isSplitScanNest).
module {
  ew.kernel @nested(%arg0: !ew.tensor<[m, n], ui64>) -> !ew.tensor<[m, n], ui64> attributes {ew.split_scans} {
    %0 = ew.scan %arg0 over ["n"] init 0 : ui64 : !ew.tensor<[m, n], ui64> to !ew.tensor<[m, n], ui64> {
    ^bb0(%arg1: ui64, %arg2: ui64):
      %2 = ew.max %arg1, %arg2 : ui64, ui64
      ew.yield %2 : ui64
    }
    %1 = ew.scan %0 over ["n"] init 0 : ui64 : !ew.tensor<[m, n], ui64> to !ew.tensor<[m, n], ui64> {
    ^bb0(%arg1: ui64, %arg2: ui64):
      %2 = ew.add %arg1, %arg2 : ui64, ui64
      ew.yield %2 : ui64
    }
    %3 = ew.add %0, %1 : !ew.tensor<[m, n], ui64>, !ew.tensor<[m, n], ui64>
    ew.return %3 : !ew.tensor<[m, n], ui64>
  }
  ew.kernel @siblings(%arg0: !ew.tensor<[m, n], ui64>) -> !ew.tensor<[m, n], ui64> attributes {ew.split_scans} {
    %0 = ew.scan %arg0 over ["n"] init 0 : ui64 : !ew.tensor<[m, n], ui64> to !ew.tensor<[m, n], ui64> {
    ^bb0(%arg1: ui64, %arg2: ui64):
      %2 = ew.max %arg1, %arg2 : ui64, ui64
      ew.yield %2 : ui64
    }
    %1 = ew.scan %arg0 over ["n"] init 0 : ui64 : !ew.tensor<[m, n], ui64> to !ew.tensor<[m, n], ui64> {
    ^bb0(%arg1: ui64, %arg2: ui64):
      %2 = ew.add %arg1, %arg2 : ui64, ui64
      ew.yield %2 : ui64
    }
    %3 = ew.add %0, %1 : !ew.tensor<[m, n], ui64>, !ew.tensor<[m, n], ui64>
    ew.return %3 : !ew.tensor<[m, n], ui64>
  }
}
