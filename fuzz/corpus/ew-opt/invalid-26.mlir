ew.kernel @scalar_result(%s: f32) -> f32 {
  ew.return
}
