// RUN: ewc-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the ew dialect, one case each: of the ops, of the
// kernel, and of the !ew.tensor type. Each invalid op gives exactly one
// diagnostic (-verify-diagnostics fails on any other): the operand checks are
// type constraints and traits that all run before result type inference,
// which never fails.

ew.kernel @mixed_elements(%x: !ew.tensor<[n], f32>, %s: f64) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.mul' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = "ew.mul"(%x, %s) : (!ew.tensor<[n], f32>, f64) -> !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

// The inferred type (!ew.tensor<[n], f32>) differs from the given one too,
// but the element type check comes first and is the only diagnostic.
ew.kernel @wrong_result_element(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.add' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = "ew.add"(%x, %x) : (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) -> !ew.tensor<[n], f64>
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

ew.kernel @scalar_result_of_tensor(%x: !ew.tensor<[n], f32>, %s: f32) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.add' op has a tensor operand, so its result must be a tensor over the same dimensions}}
  %0 = "ew.add"(%x, %s) : (!ew.tensor<[n], f32>, f32) -> f32
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

ew.kernel @tensor_result_of_scalars(%x: !ew.tensor<[n], f32>, %s: f32) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.sub' op has a tensor result but only scalar operands; a scalar result fills a tensor at ew.return}}
  %0 = "ew.sub"(%s, %s) : (f32, f32) -> !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @bool_arith(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.max' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got '!ew.tensor<[n], i1>'}}
  %0 = "ew.max"(%x, %x) : (!ew.tensor<[n], i1>, !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @bool_abs(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.abs' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got '!ew.tensor<[n], i1>'}}
  %0 = ew.abs %x : !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @int_logic(%x: !ew.tensor<[n], i32>, %p: i1) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.and' op operand #0 must be ew tensor or scalar of i1, but got '!ew.tensor<[n], i32>'}}
  %0 = "ew.and"(%x, %p) : (!ew.tensor<[n], i32>, i1) -> !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @float_not(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.not' op operand #0 must be ew tensor or scalar of i1, but got '!ew.tensor<[n], f32>'}}
  %0 = ew.not %x : !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @int_exp(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  // expected-error @+1 {{'ew.exp' op operand #0 must be ew tensor or scalar of floats, but got '!ew.tensor<[n], i32>'}}
  %0 = ew.exp %x : !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// -----

ew.kernel @cmp_mixed(%x: !ew.tensor<[n], i32>, %y: !ew.tensor<[n], i64>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.cmp' op failed to verify that all of {lhs, rhs} have same element type}}
  %0 = ew.cmp ge, %x, %y : !ew.tensor<[n], i32>, !ew.tensor<[n], i64>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @cmp_result(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.cmp' op result #0 must be ew tensor or scalar of i1, but got '!ew.tensor<[n], i32>'}}
  %0 = "ew.cmp"(%x, %x) {predicate = 5 : i64} : (!ew.tensor<[n], i32>, !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32>
  ew.return %x : !ew.tensor<[n], i32>
}

// -----

ew.kernel @cmp_bad_predicate(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = ew.cmp gte, %x, %x : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @where_condition(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.where' op operand #0 must be ew tensor or scalar of i1, but got '!ew.tensor<[n], f32>'}}
  %0 = ew.where %x, %x, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @where_values(%c: !ew.tensor<[n], i1>, %x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f16>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.where' op failed to verify that all of {true_value, false_value, result} have same element type}}
  %0 = ew.where %c, %x, %y : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f16>
  ew.return %0 : !ew.tensor<[n], f32>
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

func.func @unsupported_element(%y: i128) {
  // expected-error @+1 {{'ew.cmp' op operand #0 must be ew tensor or scalar, but got 'i128'}}
  %0 = ew.cmp eq, %y, %y : i128, i128
  return
}

// -----

func.func @cast_to_tensor(%s: f32) {
  // expected-error @+1 {{'ew.cast' op has a tensor result but only scalar operands; a scalar result fills a tensor at ew.return}}
  %0 = ew.cast %s : f32 to !ew.tensor<[n], bf16>
  return
}

// -----

func.func @cast_to_scalar(%x: !ew.tensor<[n], f32>) {
  // expected-error @+1 {{'ew.cast' op has a tensor operand, so its result must be a tensor over the same dimensions}}
  %0 = ew.cast %x : !ew.tensor<[n], f32> to i32
  return
}

// -----

func.func @cast_to_builtin_tensor(%x: !ew.tensor<[n], f32>) {
  // expected-error @+1 {{'ew.cast' op result #0 must be ew tensor or scalar, but got 'tensor<?xi8>'}}
  %0 = "ew.cast"(%x) : (!ew.tensor<[n], f32>) -> tensor<?xi8>
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

// expected-error @+1 {{'ew.kernel' op parameter 1 must be an ew scalar or tensor, got 'tensor<8xf32>'}}
ew.kernel @static_param(%x: !ew.tensor<[n], f32>, %y: tensor<8xf32>) -> !ew.tensor<[n], f32> {
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'ew.kernel' op parameter 0 must be an ew scalar or tensor, got 'si8'}}
ew.kernel @si8_param(%s: si8, %x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'ew.kernel' op tensor parameter 0 cannot have a default value}}
ew.kernel @tensor_default(%x: !ew.tensor<[n], f32> {ew.default = 1.0 : f32}) -> !ew.tensor<[n], f32> {
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'ew.kernel' op default value of parameter 0 must be a 'f32' attribute, got 1 : i32}}
ew.kernel @default_type(%s: f32 {ew.default = 1 : i32}, %x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'ew.kernel' op result 0 must be an ew tensor, got 'f32'}}
ew.kernel @scalar_result(%s: f32) -> f32 {
  ew.return
}

// -----

// expected-error @+1 {{'ew.kernel' op result 0 must be an ew tensor, got 'tensor<4xf32>'}}
ew.kernel @static_result(%x: !ew.tensor<[n], f32>) -> tensor<4xf32> {
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// expected-error @+1 {{'ew.kernel' op must return at least one tensor}}
ew.kernel @no_result(%x: !ew.tensor<[n], f32>) {
  ew.return
}

// -----

ew.kernel @return_count(%x: !ew.tensor<[n], f32>) -> (!ew.tensor<[n], f32>, !ew.tensor<[n], f32>) {
  // expected-error @+1 {{'ew.return' op returns 1 values but the kernel has 2 results}}
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

ew.kernel @return_type(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[n], f64>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.return' op result 0 has type '!ew.tensor<[n], f64>' but the kernel returns '!ew.tensor<[n], f32>' (or a scalar 'f32' to fill it)}}
  ew.return %y : !ew.tensor<[n], f64>
}

// -----

// A scalar fills a result of its element type, and only of that type.
ew.kernel @scalar_return(%x: !ew.tensor<[n], f32>, %s: f64) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.return' op result 0 has type 'f64' but the kernel returns '!ew.tensor<[n], f32>' (or a scalar 'f32' to fill it)}}
  ew.return %s : f64
}

// -----

ew.kernel @return_i4(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  %s = arith.constant 1 : i4
  // expected-error @+1 {{'ew.return' op operand #0 must be variadic of ew tensor or scalar, but got 'i4'}}
  "ew.return"(%s) : (i4) -> ()
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'ew.return' op expects parent op 'ew.kernel'}}
  "ew.return"() : () -> ()
}

// -----

//===----------------------------------------------------------------------===//
// Named dimensions
//===----------------------------------------------------------------------===//

// Elementwise ops take tensors of one list of dimensions: broadcasting by
// name is ew.broadcast's.
ew.kernel @add_dims(%x: !ew.tensor<[m, n], f32>, %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.add' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[n], f32>' beside dimensions ["m", "n"]}}
  %0 = ew.add %x, %b : !ew.tensor<[m, n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}

// -----

// ... in the same order, too.
ew.kernel @add_order(%x: !ew.tensor<[m, n], f32>, %y: !ew.tensor<[n, m], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.mul' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[n, m], f32>' beside dimensions ["m", "n"]}}
  %0 = ew.mul %x, %y : !ew.tensor<[m, n], f32>, !ew.tensor<[n, m], f32>
  ew.return %0 : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @where_dims(%c: !ew.tensor<[m], i1>, %x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.where' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[m, n], f32>' beside dimensions ["m"]}}
  %0 = ew.where %c, %x, %x : !ew.tensor<[m], i1>, !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

// The result has its operands' dimensions too; the check comes before the
// comparison with the inferred type, so it is the only diagnostic.
ew.kernel @result_dims(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.neg' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[n], f32>' beside dimensions ["m", "n"]}}
  %0 = "ew.neg"(%x) : (!ew.tensor<[m, n], f32>) -> !ew.tensor<[n], f32>
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

func.func @cast_dims(%x: !ew.tensor<[n], f32>) {
  // expected-error @+1 {{'ew.cast' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[m], bf16>' beside dimensions ["n"]}}
  %0 = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[m], bf16>
  return
}

// -----

// A broadcast adds dimensions and reorders them; it never drops one.
func.func @broadcast_drops(%x: !ew.tensor<[m, n], f32>) {
  // expected-error @+1 {{'ew.broadcast' op the result must have every dimension of the operand; it lacks 'm'}}
  %0 = ew.broadcast %x : !ew.tensor<[m, n], f32> to !ew.tensor<[k, n], f32>
  return
}

// -----

func.func @broadcast_element(%x: !ew.tensor<[n], f32>) {
  // expected-error @+1 {{'ew.broadcast' op the element types must match, got 'f32' and 'f64'}}
  %0 = ew.broadcast %x : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f64>
  return
}

// -----

// A scalar broadcasts where it is used; ew.broadcast takes tensors.
func.func @broadcast_scalar(%s: f32) {
  // expected-error @+1 {{'ew.broadcast' op operand #0 must be ew tensor, but got 'f32'}}
  %0 = "ew.broadcast"(%s) : (f32) -> !ew.tensor<[n], f32>
  return
}

// -----

ew.kernel @index_unknown(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.index' op dimension 'm' is not a dimension of kernel 'index_unknown'}}
  %0 = ew.index "m" : !ew.tensor<[m], i64>
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

ew.kernel @index_batch(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.index' op takes the batch '...', which kernel 'index_batch' does not have}}
  %0 = ew.index "..." : !ew.tensor<[...], i64>
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// The batch's position beside a reduction: not supported yet.
ew.kernel @index_batch_reduce(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[...], f32> {
  // expected-error @+1 {{'ew.index' op of the batch '...' is not supported in a kernel with reductions or scans}}
  %0 = ew.index "..." : !ew.tensor<[...], i64>
  %1 = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[..., n], f32> to !ew.tensor<[...], f32> {
  ^bb0(%a: f32, %v: f32):
    %r = ew.add %a, %v : f32, f32
    ew.yield %r : f32
  }
  ew.return %1 : !ew.tensor<[...], f32>
}

// -----

ew.kernel @index_element(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.index' op result must be !ew.tensor<[n], i64>, got '!ew.tensor<[n], i32>'}}
  %0 = ew.index "n" : !ew.tensor<[n], i32>
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// ew.index ranges over its one dimension; ew.broadcast gives it more.
ew.kernel @index_rank(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.index' op result must be !ew.tensor<[n], i64>, got '!ew.tensor<[m, n], i64>'}}
  %0 = ew.index "n" : !ew.tensor<[m, n], i64>
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @index_other_dim(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.index' op result must be !ew.tensor<[n], i64>, got '!ew.tensor<[m], i64>'}}
  %0 = ew.index "n" : !ew.tensor<[m], i64>
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @size_unknown(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.size' op dimension 'k' is not a dimension of kernel 'size_unknown'}}
  %0 = ew.size "k" : i64
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

// The batch is any number of dimensions, so it has no one extent.
ew.kernel @size_batch(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[..., n], f32> {
  // expected-error @+1 {{'ew.size' op takes a named dimension, not the batch '...'}}
  %0 = ew.size "..." : i64
  ew.return %x : !ew.tensor<[..., n], f32>
}

// -----

ew.kernel @size_type(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.size' op result #0 must be 64-bit signless integer, but got 'i32'}}
  %0 = ew.size "n" : i32
  ew.return %x : !ew.tensor<[n], f32>
}

// -----

// A returned tensor has its result's dimensions, in order: MLIRGen
// broadcasts a value over fewer (only a scalar fills a result).
ew.kernel @return_fewer_dims(%b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.return' op result 0 has type '!ew.tensor<[n], f32>' but the kernel returns '!ew.tensor<[m, n], f32>' (or a scalar 'f32' to fill it)}}
  ew.return %b : !ew.tensor<[n], f32>
}

// -----

ew.kernel @return_order(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[n, m], f32> {
  // expected-error @+1 {{'ew.return' op result 0 has type '!ew.tensor<[m, n], f32>' but the kernel returns '!ew.tensor<[n, m], f32>' (or a scalar 'f32' to fill it)}}
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

//===----------------------------------------------------------------------===//
// The !ew.tensor type
//===----------------------------------------------------------------------===//

// A scalar is its element type, not a tensor of no dimensions.
// expected-error @+1 {{an ew tensor has at least one dimension (a scalar is its element type)}}
func.func private @no_dims(%x: !ew.tensor<[], f32>)

// -----

// expected-error @+1 {{'...' (the batch) can only be the first dimension}}
func.func private @batch_not_first(%x: !ew.tensor<[n, ...], f32>)

// -----

// expected-error @+1 {{dimension 'n' appears twice}}
func.func private @twice(%x: !ew.tensor<[n, m, n], f32>)

// -----

// expected-error @+1 {{dimension names are not empty}}
func.func private @empty_name(%x: !ew.tensor<[""], f32>)

// -----

// expected-error @+1 {{element type must be i1, i8, i16, i32, i64 (signless), ui8, ui16, ui32, ui64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2, got 'si8'}}
func.func private @si8_element(%x: !ew.tensor<[n], si8>)

// -----

// A dimension is a name (a keyword or a string), not an extent.
// expected-error @+1 {{expected valid keyword or string}}
func.func private @extent(%x: !ew.tensor<[4], f32>)


// -----

ew.kernel @bool_isnan(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i1> {
  // expected-error @+1 {{'ew.isnan' op operand #0 must be ew tensor or scalar of integers or floats (not i1), but got '!ew.tensor<[n], i1>'}}
  %0 = ew.isnan %x : !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i1>
}

// -----

ew.kernel @fma_of_integers(%x: !ew.tensor<[n], i32>) -> !ew.tensor<[n], i32> {
  // expected-error @+1 {{'ew.fma' op operand #0 must be ew tensor or scalar of floats, but got '!ew.tensor<[n], i32>'}}
  %0 = ew.fma %x, %x, %x : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
  ew.return %0 : !ew.tensor<[n], i32>
}

// -----

ew.kernel @shift_of_floats(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.shl' op operand #0 must be ew tensor or scalar of integers (not i1), but got '!ew.tensor<[n], f32>'}}
  %0 = ew.shl %x, %x : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @sin_of_integers(%x: !ew.tensor<[n], i64>) -> !ew.tensor<[n], i64> {
  // expected-error @+1 {{'ew.sin' op operand #0 must be ew tensor or scalar of floats, but got '!ew.tensor<[n], i64>'}}
  %0 = ew.sin %x : !ew.tensor<[n], i64>
  ew.return %0 : !ew.tensor<[n], i64>
}

// -----

ew.kernel @pow_mixed_types(%x: !ew.tensor<[n], f32>, %y: f64) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.pow' op}}
  %0 = ew.pow %x, %y : !ew.tensor<[n], f32>, f64
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @reduce_missing_dim(%x: !ew.tensor<[n], f32>, %y: !ew.tensor<[m], f32>) -> !ew.tensor<[m], f32> {
  // expected-error @+1 {{'ew.reduce' op the operand has no dimension 'm'}}
  %0 = ew.reduce %x over ["m"] init 0.0 : f32 : !ew.tensor<[n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %y : !ew.tensor<[m], f32>
}

// -----

ew.kernel @reduce_wrong_result(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.reduce' op result must be '!ew.tensor<[m], f32>', got '!ew.tensor<[n], f32>'}}
  %0 = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @reduce_twice(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.reduce' op names dimension 'n' twice}}
  %0 = ew.reduce %x over ["n", "n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @reduce_batch(%x: !ew.tensor<[..., n], f32>) -> !ew.tensor<[..., n], f32> {
  // expected-error @+1 {{'ew.reduce' op takes a named dimension, not the batch '...'}}
  %0 = ew.reduce %x over ["..."] init 0.0 : f32 : !ew.tensor<[..., n], f32> to !ew.tensor<[n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %x : !ew.tensor<[..., n], f32>
}

// -----

ew.kernel @reduce_init_type(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.reduce' op init must be a 'f32', got 'f64'}}
  %0 = ew.reduce %x over ["n"] init 0.0 : f64 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @reduce_combiner_args(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.reduce' op the combiner must take two 'f32' arguments}}
  %0 = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32):
    ew.yield %a : f32
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @reduce_combiner_yield(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.reduce' op the combiner must yield a 'f32', got 'i1'}}
  %0 = ew.reduce %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.cmp lt, %a, %b : f32, f32
    ew.yield %r : i1
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @scan_two_dims(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.scan' op runs along one dimension, got 2}}
  %0 = ew.scan %x over ["m", "n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m, n], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %0 : !ew.tensor<[m, n], f32>
}

// -----

ew.kernel @scan_wrong_result(%x: !ew.tensor<[m, n], f32>) -> !ew.tensor<[m, n], f32> {
  // expected-error @+1 {{'ew.scan' op result must have the operand's type '!ew.tensor<[m, n], f32>', got '!ew.tensor<[m], f32>'}}
  %0 = ew.scan %x over ["n"] init 0.0 : f32 : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
  ^bb0(%a: f32, %b: f32):
    %r = ew.add %a, %b : f32, f32
    ew.yield %r : f32
  }
  ew.return %x : !ew.tensor<[m, n], f32>
}

// -----

func.func @yield_outside(%x: f32) {
  // expected-error @+1 {{'ew.yield' op expects parent op to be one of 'ew.reduce, ew.scan'}}
  ew.yield %x : f32
}

// -----

// The launch descriptor (#ew.launch) of a lowered gpu.func.

// expected-error @+1 {{lane_dims belong to the 'rows' schedule: a non-empty list of dimension names}}
func.func @launch_lanes_elementwise() attributes {ew.launch = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 4, shared_memory = 0, lane_dims = ["d"]>} {
  return
}

// -----

// expected-error @+1 {{lane_dims belong to the 'rows' schedule: a non-empty list of dimension names}}
func.func @launch_lanes_empty() attributes {ew.launch = #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = [["s"]], lane_dims = []>} {
  return
}

// -----

// expected-error @+1 {{row_dims belong to the 'rows' and 'columns' schedules, not 'elementwise'}}
func.func @launch_rows_elementwise() attributes {ew.launch = #ew.launch<schedule = "elementwise", block_size = 128, elements_per_thread = 4, shared_memory = 0, row_dims = [["n"]]>} {
  return
}

// -----

// expected-error @+1 {{row_dims is a list of rows, each a non-empty list of dimension names}}
func.func @launch_rows_empty() attributes {ew.launch = #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = [[]]>} {
  return
}

// -----

// expected-error @+1 {{row_dims is a list of rows, each a non-empty list of dimension names}}
func.func @launch_rows_not_names() attributes {ew.launch = #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = [["n", 1]]>} {
  return
}

// -----

// expected-error @+1 {{a workspace belongs to the 'columns' and 'rows' schedules, not 'tiled'}}
func.func @launch_tiled_workspace() attributes {ew.launch = #ew.launch<schedule = "tiled", block_size = 256, elements_per_thread = 4, shared_memory = 0, workspace = 1>} {
  return
}

// -----

// expected-error @+1 {{a 'rows' schedule with a workspace names its scanned or split dimensions: one list in row_dims}}
func.func @launch_rows_workspace_two_rows() attributes {ew.launch = #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1, shared_memory = 0, row_dims = [["n"], ["k"]], workspace = 1>} {
  return
}

// -----

// expected-error @+1 {{the 'columns' schedule names its reduced dimensions: one list in row_dims}}
func.func @launch_columns_no_rows() attributes {ew.launch = #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1, shared_memory = 0, workspace = 1>} {
  return
}

// -----

// expected-error @+1 {{the 'columns' schedule names its reduced dimensions: one list in row_dims}}
func.func @launch_columns_two_rows() attributes {ew.launch = #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1, shared_memory = 0, row_dims = [["m"], ["k"]], workspace = 1>} {
  return
}

// -----

// expected-error @+1 {{a launch has a block of at least one thread}}
func.func @launch_no_threads() attributes {ew.launch = #ew.launch<schedule = "elementwise", block_size = 0, elements_per_thread = 1, shared_memory = 0>} {
  return
}

// -----

ew.kernel @bitcast_widths(%x: !ew.tensor<[n], f32>) -> !ew.tensor<[n], ui16> {
  // expected-error @+1 {{'ew.bitcast' op reinterprets 'f32' as 'ui16', which have different widths}}
  %0 = ew.bitcast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], ui16>
  ew.return %0 : !ew.tensor<[n], ui16>
}

// -----

ew.kernel @bitcast_bool(%x: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i8> {
  // expected-error @+1 {{'ew.bitcast' op cannot reinterpret i1, which has no bit pattern}}
  %0 = ew.bitcast %x : !ew.tensor<[n], i1> to !ew.tensor<[n], i8>
  ew.return %0 : !ew.tensor<[n], i8>
}

// -----

ew.kernel @random_float_seed(%s: f32, %o: !ew.tensor<[n], i64>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.rand' op operand #0 must be ew tensor or scalar of integers (not i1), but got 'f32'}}
  %0 = ew.rand %s, %o : f32, !ew.tensor<[n], i64>
  ew.return %0 : !ew.tensor<[n], f32>
}

// -----

ew.kernel @random_bool_offset(%s: i64, %o: !ew.tensor<[n], i1>) -> !ew.tensor<[n], i32> {
  // expected-error @+1 {{'ew.randint' op operand #1 must be ew tensor or scalar of integers (not i1), but got '!ew.tensor<[n], i1>'}}
  %0 = ew.randint %s, %o : i64, !ew.tensor<[n], i1>
  ew.return %0 : !ew.tensor<[n], i32>
}

// -----

ew.kernel @random_dims(%s: !ew.tensor<[m], i64>, %o: !ew.tensor<[n], i64>) -> !ew.tensor<[n], f32> {
  // expected-error @+1 {{'ew.randn' op tensor operands and results must have the same dimensions; broadcast with ew.broadcast, got '!ew.tensor<[n], i64>' beside dimensions ["m"]}}
  %0 = "ew.randn"(%s, %o) : (!ew.tensor<[m], i64>, !ew.tensor<[n], i64>) -> !ew.tensor<[n], f32>
  ew.return %0 : !ew.tensor<[n], f32>
}
