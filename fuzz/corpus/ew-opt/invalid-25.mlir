ew.kernel @default_type(%s: f32 {ew.default = 1 : i32}, %x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  ew.return %x : !ew.tensor<[n], f32>
}
