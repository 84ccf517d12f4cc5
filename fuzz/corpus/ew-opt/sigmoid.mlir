module {
  ew.kernel @sigmoid(%arg0: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
    %0 = ew.sigmoid %arg0 : !ew.tensor<[n], f32>
    ew.return %0 : !ew.tensor<[n], f32>
  }
}

