// RUN: ewc-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the ew dialect, one case each. Each invalid op
// gives exactly one diagnostic (-verify-diagnostics fails on any other): the
// operand checks are type constraints and traits that all run before result
// type inference, which never fails.

ew.kernel @mixed_elements(%x: tensor<?xf32>, %s: f64) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.mul' op requires the same element type for all operands and results}}
  %0 = "ew.mul"(%x, %s) : (tensor<?xf32>, f64) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

// The inferred type (tensor<?xf32>) differs from the given one too, but the
// element type check comes first and is the only diagnostic.
ew.kernel @wrong_result_element(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.add' op requires the same element type for all operands and results}}
  %0 = "ew.add"(%x, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf64>
  ew.return %x : tensor<?xf32>
}

// -----

ew.kernel @scalar_result_of_tensor(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.add' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = "ew.add"(%x, %s) : (tensor<?xf32>, f32) -> f32
  ew.return %x : tensor<?xf32>
}

// -----

ew.kernel @tensor_result_of_scalars(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.sub' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = "ew.sub"(%s, %s) : (f32, f32) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

ew.kernel @bool_arith(%x: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.max' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got 'tensor<?xi1>'}}
  %0 = "ew.max"(%x, %x) : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @bool_abs(%x: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.abs' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got 'tensor<?xi1>'}}
  %0 = ew.abs %x : tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @int_logic(%x: tensor<?xi32>, %p: i1) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.and' op operand #0 must be ew tensor or scalar of i1, but got 'tensor<?xi32>'}}
  %0 = "ew.and"(%x, %p) : (tensor<?xi32>, i1) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @float_not(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.not' op operand #0 must be ew tensor or scalar of i1, but got 'tensor<?xf32>'}}
  %0 = ew.not %x : tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

ew.kernel @int_exp(%x: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+1 {{'ew.exp' op operand #0 must be ew tensor or scalar of floats, but got 'tensor<?xi32>'}}
  %0 = ew.exp %x : tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// -----

ew.kernel @cmp_mixed(%x: tensor<?xi32>, %y: tensor<?xi64>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.cmp' op requires the same element type for all operands}}
  %0 = ew.cmp ge, %x, %y : tensor<?xi32>, tensor<?xi64>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @cmp_result(%x: tensor<?xi32>) -> tensor<?xi1> {
  // expected-error @+1 {{'ew.cmp' op result #0 must be ew tensor or scalar of i1, but got 'tensor<?xi32>'}}
  %0 = "ew.cmp"(%x, %x) {predicate = 5 : i64} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  ew.return %x : tensor<?xi32>
}

// -----

ew.kernel @cmp_bad_predicate(%x: tensor<?xi32>) -> tensor<?xi1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = ew.cmp gte, %x, %x : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @where_condition(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.where' op operand #0 must be ew tensor or scalar of i1, but got 'tensor<?xf32>'}}
  %0 = ew.where %x, %x, %x : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

ew.kernel @where_values(%c: tensor<?xi1>, %x: tensor<?xf32>, %y: tensor<?xf16>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.where' op failed to verify that all of {true_value, false_value, result} have same element type}}
  %0 = ew.where %c, %x, %y : tensor<?xi1>, tensor<?xf32>, tensor<?xf16>
  ew.return %0 : tensor<?xf32>
}

// -----

// Value ops may appear outside a kernel (e.g. in a func.func), but only on
// ew types.
func.func @static_tensor(%y: tensor<4xf32>) {
  // expected-error @+1 {{'ew.neg' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got 'tensor<4xf32>'}}
  %0 = "ew.neg"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unsupported_element(%y: tensor<?xi8>) {
  // expected-error @+1 {{'ew.cmp' op operand #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = ew.cmp eq, %y, %y : tensor<?xi8>, tensor<?xi8>
  return
}

// -----

func.func @cast_to_tensor(%s: f32) {
  // expected-error @+1 {{'ew.cast' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %0 = ew.cast %s : f32 to tensor<?xbf16>
  return
}

// -----

func.func @cast_to_scalar(%x: tensor<?xf32>) {
  // expected-error @+1 {{'ew.cast' op if an operand is non-scalar, then there must be at least one non-scalar result}}
  %0 = ew.cast %x : tensor<?xf32> to i32
  return
}

// -----

func.func @cast_to_i8(%x: tensor<?xf32>) {
  // expected-error @+1 {{'ew.cast' op result #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = ew.cast %x : tensor<?xf32> to tensor<?xi8>
  return
}

// -----

func.func @tensor_constant() {
  // expected-error @+1 {{result #0 must be ew element type, but got 'tensor<4xf32>'}}
  %0 = "ew.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  return
}

// -----

func.func @string_constant() {
  // expected-error @+1 {{'ew.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "ew.constant"() {value = "one"} : () -> f32
  return
}

// -----

func.func @index_constant() {
  // expected-error @+1 {{result #0 must be ew element type, but got 'index'}}
  %0 = "ew.constant"() {value = 1 : index} : () -> index
  return
}

// -----

// expected-error @+1 {{'ew.kernel' op parameter 1 must be an ew scalar or a tensor<?xT>, got 'tensor<8xf32>'}}
ew.kernel @static_param(%x: tensor<?xf32>, %y: tensor<8xf32>) -> tensor<?xf32> {
  ew.return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{'ew.kernel' op parameter 0 must be an ew scalar or a tensor<?xT>, got 'i8'}}
ew.kernel @i8_param(%s: i8, %x: tensor<?xf32>) -> tensor<?xf32> {
  ew.return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{'ew.kernel' op tensor parameter 0 cannot have a default value}}
ew.kernel @tensor_default(%x: tensor<?xf32> {ew.default = 1.0 : f32}) -> tensor<?xf32> {
  ew.return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{'ew.kernel' op default value of parameter 0 must be a 'f32' attribute, got 1 : i32}}
ew.kernel @default_type(%s: f32 {ew.default = 1 : i32}, %x: tensor<?xf32>) -> tensor<?xf32> {
  ew.return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{'ew.kernel' op result 0 must be a tensor<?xT>, got 'f32'}}
ew.kernel @scalar_result(%s: f32) -> f32 {
  ew.return
}

// -----

// expected-error @+1 {{'ew.kernel' op result 0 must be a tensor<?xT>, got 'tensor<4xf32>'}}
ew.kernel @static_result(%x: tensor<?xf32>) -> tensor<4xf32> {
  ew.return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{'ew.kernel' op must return at least one tensor}}
ew.kernel @no_result(%x: tensor<?xf32>) {
  ew.return
}

// -----

ew.kernel @return_count(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  // expected-error @+1 {{'ew.return' op returns 1 values but the kernel has 2 results}}
  ew.return %x : tensor<?xf32>
}

// -----

ew.kernel @return_type(%x: tensor<?xf32>, %y: tensor<?xf64>) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.return' op result 0 has type 'tensor<?xf64>' but the kernel returns 'tensor<?xf32>' (or a scalar 'f32' to fill it)}}
  ew.return %y : tensor<?xf64>
}

// -----

// A scalar fills a result of its element type, and only of that type.
ew.kernel @scalar_return(%x: tensor<?xf32>, %s: f64) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.return' op result 0 has type 'f64' but the kernel returns 'tensor<?xf32>' (or a scalar 'f32' to fill it)}}
  ew.return %s : f64
}

// -----

ew.kernel @return_i8(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = arith.constant 1 : i8
  // expected-error @+1 {{'ew.return' op operand #0 must be variadic of ew tensor or scalar, but got 'i8'}}
  "ew.return"(%s) : (i8) -> ()
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'ew.return' op expects parent op 'ew.kernel'}}
  "ew.return"() : () -> ()
}
