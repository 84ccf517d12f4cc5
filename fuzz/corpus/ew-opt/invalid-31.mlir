

ew.kernel @scalar_return(%x: tensor<?xf32>, %s: f64) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.return' op result 0 has type 'f64' but the kernel returns 'tensor<?xf32>' (or a scalar 'f32' to fill it)}}
  ew.return %s : f64
}

