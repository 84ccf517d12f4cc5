// RUN: ewc-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the ew dialect, one case each.

ew.kernel @mixed_elements(%x: tensor<?xf32>, %s: f64) -> tensor<?xf32> {
  // expected-error @+2 {{operands must have the same element type, got 'f32' and 'f64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.mul"(%x, %s) : (tensor<?xf32>, f64) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

ew.kernel @wrong_result(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+2 {{'ew.add' op inferred type(s) 'tensor<?xf32>' are incompatible with return type(s) of operation 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.add"(%x, %s) : (tensor<?xf32>, f32) -> f32
  ew.return %x : tensor<?xf32>
}

// -----

ew.kernel @bool_arith(%x: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error @+2 {{arithmetic on i1 is not defined}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.add"(%x, %x) : (tensor<?xi1>, tensor<?xi1>) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @bool_neg(%x: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error @+2 {{arithmetic on i1 is not defined}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.neg"(%x) : (tensor<?xi1>) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @int_div(%x: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+2 {{expects floating-point operands, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.div"(%x, %x) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  ew.return %0 : tensor<?xi32>
}

// -----

ew.kernel @cmp_mixed(%x: tensor<?xi32>, %y: tensor<?xi64>) -> tensor<?xi1> {
  // expected-error @+2 {{operands must have the same element type, got 'i32' and 'i64'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.cmp"(%x, %y) {predicate = 5 : i64} : (tensor<?xi32>, tensor<?xi64>) -> tensor<?xi1>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @cmp_bad_predicate(%x: tensor<?xi32>) -> tensor<?xi1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = ew.cmp gte, %x, %x : tensor<?xi32>, tensor<?xi32>
  ew.return %0 : tensor<?xi1>
}

// -----

ew.kernel @where_condition(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{condition must have element type i1, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.where"(%x, %x, %x) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

ew.kernel @where_values(%c: tensor<?xi1>, %x: tensor<?xf32>, %y: tensor<?xf16>) -> tensor<?xf32> {
  // expected-error @+2 {{selected values must have the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "ew.where"(%c, %x, %y) : (tensor<?xi1>, tensor<?xf32>, tensor<?xf16>) -> tensor<?xf32>
  ew.return %0 : tensor<?xf32>
}

// -----

// Value ops may appear outside a kernel (e.g. in a func.func), but only on
// ew types.
func.func @static_tensor(%y: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be ew tensor or scalar, but got 'tensor<4xf32>'}}
  %0 = "ew.neg"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unsupported_element(%y: tensor<?xi8>) {
  // expected-error @+1 {{operand #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = "ew.neg"(%y) : (tensor<?xi8>) -> tensor<?xi8>
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
  // expected-error @+1 {{'ew.return' op result 0 has type 'tensor<?xf64>' but the kernel returns 'tensor<?xf32>'}}
  ew.return %y : tensor<?xf64>
}

// -----

ew.kernel @scalar_return(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  // expected-error @+1 {{'ew.return' op operand #0 must be variadic of 1-D tensor of dynamic length, but got 'f32'}}
  "ew.return"(%s) : (f32) -> ()
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'ew.return' op expects parent op 'ew.kernel'}}
  "ew.return"() : () -> ()
}
