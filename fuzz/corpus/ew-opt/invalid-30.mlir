

ew.kernel @return_type(%x: tensor<?xf32>, %y: tensor<?xf64>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.return' op result 0 has type 'tensor<?xf64>' but the kernel returns 'tensor<?xf32>' (or a scalar 'f32' to fill it)}}
  ew.return %y : tensor<?xf64>
}

