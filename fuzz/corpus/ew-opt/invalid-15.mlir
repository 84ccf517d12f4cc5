func.func @unsupported_element(%y: i8) {
  %0 = ew.cmp eq, %y, %y : i8, i8
  return
}
