//===- EwOps.td - ew dialect operations --------------------*- tablegen -*-===//
//
// The ops of the ew dialect: the kernel and its terminator, constants, the
// elementwise arithmetic, logic, math, comparison and selection ops, the
// cast, and the ops of named dimensions (broadcast, index, size). Every
// elementwise op but the cast infers its result type from its operands (a
// tensor over their dimensions if any operand is a tensor), so the custom
// assembly lists operand types only.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWOPS_TD
#define EWC_DIALECT_EW_IR_EWOPS_TD

include "ewc/Dialect/Ew/IR/EwDialect.td"
include "ewc/Dialect/Ew/IR/EwTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The type predicates live in C++ (EwOps.h), so that the ops' constraints
// and the kernel's signature check share one definition.
def Ew_Element : Type<CPred<"::mlir::ew::isElementType($_self)">,
                      "ew element type">;

def Ew_Tensor : Type<
    CPred<"::mlir::ew::isTensor($_self) && ::mlir::ew::isValueType($_self)">,
    "ew tensor", "::mlir::ew::NamedTensorType">;

def Ew_Value : AnyTypeOf<[Ew_Element, Ew_Tensor], "ew tensor or scalar">;

// An ew value (T or !ew.tensor<[...], T>) whose element type T satisfies
// `pred`, a predicate on `$_self`'s element type `$_elem`.
class Ew_ValueOf<string pred, string summary> : Type<
    And<[CPred<"::mlir::ew::isValueType($_self)">,
         SubstLeaves<"$_elem", "::mlir::ew::getElementType($_self)",
                     CPred<pred>>]>,
    "ew tensor or scalar of " # summary>;

def Ew_BoolValue : Ew_ValueOf<"$_elem.isInteger(1)", "i1">;
def Ew_FloatValue : Ew_ValueOf<"::llvm::isa<::mlir::FloatType>($_elem)",
                               "floats">;
// Arithmetic is not defined on i1 (bool has and/or/not instead).
def Ew_NumericValue : Ew_ValueOf<"!$_elem.isInteger(1)",
                                 "integers or floats (not i1)">;
// Bitwise operations: integers of two or more bits.
def Ew_IntValue : Ew_ValueOf<
    "::llvm::isa<::mlir::IntegerType>($_elem) && !$_elem.isInteger(1)",
    "integers (not i1)">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Ew_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ew_Dialect, mnemonic, traits>;

// The named values have one ew element type: T of a scalar T and of a tensor
// !ew.tensor<[...], T> alike. (MLIR's SameOperandsAndResultElementType only
// looks into builtin shaped types.)
class Ew_AllElementTypesMatch<list<string> names>
    : AllMatchSameOperatorTrait<names,
          "::mlir::ew::getElementType($_self.getType())", "element type">;

// Every tensor operand and result has the same dimensions, in the same order
// (scalars aside), and the result is a tensor exactly when an operand is:
// the broadcasts are explicit ops (ew.broadcast). (ElementwiseMappable's own
// scalar/tensor check only sees builtin tensors and vectors.)
def Ew_SameTensorDims : NativeOpTrait<"SameTensorDims"> {
  let cppNamespace = "::mlir::ew";
}

// An elementwise op with scalar broadcasting: the result is a tensor over the
// tensor operands' dimensions exactly when an operand is a tensor
// (ElementwiseMappable for what that means; Ew_SameTensorDims checks the
// dimensions), with the element type `resultElement` (C++ over `adaptor`; by
// default the first operand's).
//
// Every operand check is a type constraint or a trait. MLIR verifies those
// first and stops at the first that fails; the comparison of the result type
// with the inferred one is InferTypeOpInterface's region verifier, which runs
// only after all of them passed. So an invalid op gets exactly one
// diagnostic, and `inferReturnTypes` never fails: it only computes the type
// that the checks have made consistent.
class Ew_ElementwiseOp<string mnemonic, list<Trait> traits = [],
    code resultElement = [{
      ::mlir::ew::getElementType(adaptor.getOperands().front().getType())
    }]>
    : Ew_Op<mnemonic, !listconcat([ElementwiseMappable, Ew_SameTensorDims],
                                  traits, [Pure, InferTypeOpAdaptor])> {
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, ::std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      results.push_back(::mlir::ew::getBroadcastType(
          adaptor.getOperands().getTypes(), }] # resultElement # [{));
      return ::mlir::success();
    }
  }];
}

// A unary op whose operand and result have the same type, from the class
// `valueType` (e.g. floats only).
class Ew_UnaryOp<string mnemonic, Type valueType, list<Trait> traits = []>
    : Ew_ElementwiseOp<mnemonic,
                       !listconcat([Ew_AllElementTypesMatch<["operand",
                                                             "result"]>],
                                   traits)> {
  let arguments = (ins valueType:$operand);
  let results = (outs valueType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
}

// A binary op whose operands and result have one element type, from the
// class `valueType`; either operand may be a scalar.
class Ew_BinaryOp<string mnemonic, Type valueType, list<Trait> traits = []>
    : Ew_ElementwiseOp<mnemonic,
                       !listconcat([Ew_AllElementTypesMatch<["lhs", "rhs",
                                                             "result"]>],
                                   traits)> {
  let arguments = (ins valueType:$lhs, valueType:$rhs);
  let results = (outs valueType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasFolder = 1;
}

// The families.
class Ew_ArithBinaryOp<string mnemonic, list<Trait> traits = []>
    : Ew_BinaryOp<mnemonic, Ew_NumericValue, traits>;
class Ew_BoolBinaryOp<string mnemonic>
    : Ew_BinaryOp<mnemonic, Ew_BoolValue, [Commutative]>;
class Ew_ArithUnaryOp<string mnemonic> : Ew_UnaryOp<mnemonic, Ew_NumericValue>;
// A math function of floats; f16 and bf16 compute in f32.
class Ew_FloatUnaryOp<string mnemonic, string function>
    : Ew_UnaryOp<mnemonic, Ew_FloatValue> {
  let summary = "Elementwise " # function;
  let description = !strconcat([{
    `}], function, [{` of each element, computed on each target as
    docs/pipeline.md ("Math functions") says. f16 and bf16 elements are
    computed in f32 and rounded back.

    ```mlir
    %r = ew.}], mnemonic, [{ %x : !ew.tensor<[n], f32>
    ```
  }]);
}

//===----------------------------------------------------------------------===//
// KernelOp and ReturnOp
//===----------------------------------------------------------------------===//

def Ew_KernelOp : Ew_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove
  ]> {
  let summary = "An elementwise kernel over tensors with named dimensions";
  let description = [{
    A kernel has tensor parameters (`!ew.tensor<[dims], T>`, each dimension
    name one extent throughout the kernel) and scalar parameters (runtime
    values), and returns one or more tensors. Its single block computes each
    result at every point of the result's dimensions; scalars broadcast,
    tensors by name. A scalar parameter may carry a default value in the
    argument attribute `ew.default`, of the parameter's type.

    ```mlir
    ew.kernel @bias_add(%x: !ew.tensor<[m, n], f32>,
                        %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
      %bb = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
      %r = ew.add %x, %bb : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
      ew.return %r : !ew.tensor<[m, n], f32>
    }
    ```
  }];

  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);

  let builders = [OpBuilder<(ins "StringRef":$name, "FunctionType":$type)>];

  let extraClassDeclaration = [{
    /// The name of the argument attribute that holds a scalar's default.
    static StringRef getDefaultAttrName() { return "ew.default"; }

    /// The default value of scalar argument `index`, or null.
    TypedAttr getArgDefault(unsigned index);
    /// True if a parameter or result of the kernel has dimension `name`.
    bool hasDim(StringRef name);
    /// The kernel's dimensions: the batch `...` first where a tensor has it,
    /// then every name in the order of its first appearance in the
    /// parameter types and then the result types.
    SmallVector<StringAttr> getDims();

    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//

    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ArrayRef<Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ArrayRef<Type> getResultTypes() { return getFunctionType().getResults(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Ew_ReturnOp : Ew_Op<"return", [
    Pure, HasParent<"KernelOp">, ReturnLike, Terminator
  ]> {
  let summary = "Returns the results of an ew.kernel";
  let description = [{
    Terminates the body of an `ew.kernel`; its operands are the kernel's
    results, in order. Each has the kernel's result type exactly (MLIRGen
    broadcasts a value that lacks some of the result's dimensions) or is a
    scalar of its element type, which fills the result (every element is
    the scalar).

    ```mlir
    ew.return %r, %zero : !ew.tensor<[n], f32>, f32
    ```
  }];
  let arguments = (ins Variadic<Ew_Value>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

def Ew_ConstantOp : Ew_Op<"constant", [
    ConstantLike, Pure, AllTypesMatch<["value", "result"]>
  ]> {
  let summary = "A scalar constant";
  let description = [{
    A scalar of an ew element type; it broadcasts like any scalar when used
    with tensors.

    ```mlir
    %zero = ew.constant 0.000000e+00 : f32
    %t = ew.constant true
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Ew_Element:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

def Ew_AddOp : Ew_ArithBinaryOp<"add", [Commutative]> {
  let summary = "Elementwise addition";
  let description = [{
    `lhs + rhs` for each element; integers wrap around.

    ```mlir
    %r = ew.add %x, %y : !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ```
  }];
}

def Ew_SubOp : Ew_ArithBinaryOp<"sub"> {
  let summary = "Elementwise subtraction";
  let description = [{
    `lhs - rhs` for each element; integers wrap around.

    ```mlir
    %r = ew.sub %x, %one : !ew.tensor<[n], f32>, f32
    ```
  }];
}

def Ew_MulOp : Ew_ArithBinaryOp<"mul", [Commutative]> {
  let summary = "Elementwise multiplication";
  let description = [{
    `lhs * rhs` for each element; integers wrap around. A scalar operand
    multiplies every element.

    ```mlir
    %r = ew.mul %slope, %x : f32, !ew.tensor<[n], f32>
    ```
  }];
}

def Ew_DivOp : Ew_ArithBinaryOp<"div"> {
  let summary = "Elementwise division";
  let description = [{
    `lhs / rhs` for each element. Floats divide as IEEE says (correctly
    rounded; `x / 0.0` is an infinity or NaN). Integers truncate toward zero
    as in C, with a result for every input: `x / 0` is 0 and
    `INT_MIN / -1` wraps to `INT_MIN`, so no division ever traps.

    ```mlir
    %r = ew.div %x, %y : !ew.tensor<[n], i32>, !ew.tensor<[n], i32>
    ```
  }];
}

def Ew_RemainderOp : Ew_ArithBinaryOp<"remainder"> {
  let summary = "Elementwise remainder with the sign of the divisor";
  let description = [{
    `lhs % rhs` as `torch.remainder`: r = fmod(lhs, rhs), then r + rhs where
    r is not zero and its sign differs from rhs's (one rounding for floats;
    `-1 % inf` is inf, as torch's). Integers: the same on C's `%`, with
    `x % 0` = 0 and `INT_MIN % -1` = 0, so none traps.

    ```mlir
    %r = ew.remainder %x, %y : !ew.tensor<[n], f32>, f32
    ```
  }];
}

def Ew_FmodOp : Ew_ArithBinaryOp<"fmod"> {
  let summary = "Elementwise remainder with the sign of the dividend";
  let description = [{
    `fmod(lhs, rhs)` as C's and `torch.fmod`: lhs - n * rhs with n the
    quotient truncated toward zero, exact for floats (`fmod(x, 0.0)` and
    `fmod(inf, y)` are NaN, `fmod(x, inf)` is x); integers truncate as C's
    `%`, with `x fmod 0` = 0 and `INT_MIN fmod -1` = 0.

    ```mlir
    %r = ew.fmod %x, %y : !ew.tensor<[n], i32>, i32
    ```
  }];
}

// A bitwise operation of integers.
class Ew_BitBinaryOp<string mnemonic, string rule, list<Trait> traits = []>
    : Ew_BinaryOp<mnemonic, Ew_IntValue, traits> {
  let summary = "Elementwise " # rule;
  let description = [{
    The }] # rule # [{ of each pair of integer elements; either operand may
    be a scalar.

    ```mlir
    %r = ew.}] # mnemonic # [{ %x, %mask : !ew.tensor<[n], i32>, i32
    ```
  }];
}

def Ew_BitAndOp : Ew_BitBinaryOp<"bitwise_and", "bitwise and", [Commutative]>;
def Ew_BitOrOp : Ew_BitBinaryOp<"bitwise_or", "bitwise or", [Commutative]>;
def Ew_BitXorOp : Ew_BitBinaryOp<"bitwise_xor", "bitwise exclusive or",
                                 [Commutative]>;
def Ew_ShlOp : Ew_BitBinaryOp<"shl",
    "left shift (lhs << rhs; a shift below 0 or by the width or more gives 0, "
    "as torch's bitwise_left_shift)">;
def Ew_ShrOp : Ew_BitBinaryOp<"shr",
    "arithmetic right shift (lhs >> rhs, the sign copied in; a shift below 0 "
    "or by the width - 1 or more gives lhs >> (width - 1), 0 or -1, as "
    "torch's bitwise_right_shift of signed types)">;

def Ew_BitNotOp : Ew_UnaryOp<"bitwise_not", Ew_IntValue> {
  let summary = "Elementwise bitwise not";
  let description = [{
    Every bit of each integer element flipped (`~x` = -x - 1).

    ```mlir
    %r = ew.bitwise_not %x : !ew.tensor<[n], i64>
    ```
  }];
}

def Ew_MaxOp : Ew_ArithBinaryOp<"max", [Commutative]> {
  let summary = "Elementwise maximum";
  let description = [{
    The larger of `lhs` and `rhs` for each element. Floats follow IEEE
    754-2019 `maximum`: NaN if either operand is NaN, and +0.0 > -0.0.
    Integers compare as signed.

    ```mlir
    %r = ew.max %x, %zero : !ew.tensor<[n], f32>, f32
    ```
  }];
}

def Ew_MinOp : Ew_ArithBinaryOp<"min", [Commutative]> {
  let summary = "Elementwise minimum";
  let description = [{
    The smaller of `lhs` and `rhs` for each element. Floats follow IEEE
    754-2019 `minimum`: NaN if either operand is NaN, and -0.0 < +0.0.
    Integers compare as signed.

    ```mlir
    %r = ew.min %x, %y : !ew.tensor<[n], i64>, !ew.tensor<[n], i64>
    ```
  }];
}

def Ew_NegOp : Ew_ArithUnaryOp<"neg"> {
  let summary = "Elementwise negation";
  let description = [{
    `-operand` for each element (flips the sign bit of floats, so
    `neg(0.0)` is `-0.0`; integers wrap around).

    ```mlir
    %r = ew.neg %x : !ew.tensor<[n], f32>
    ```
  }];
}

def Ew_SignOp : Ew_ArithUnaryOp<"sign"> {
  let summary = "Elementwise sign";
  let description = [{
    -1, 0 or +1 by the sign of each element; a float zero keeps its sign
    (`sign(-0.0)` is -0.0) and NaN stays NaN.

    ```mlir
    %r = ew.sign %x : !ew.tensor<[n], f32>
    ```
  }];
}

def Ew_AbsOp : Ew_ArithUnaryOp<"abs"> {
  let summary = "Elementwise absolute value";
  let description = [{
    `|operand|` for each element. Floats clear the sign bit (`abs(-0.0)` is
    +0.0, NaN stays NaN); integers wrap around, so `abs(INT_MIN)` is
    `INT_MIN`.

    ```mlir
    %r = ew.abs %x : !ew.tensor<[n], i32>
    ```
  }];
}

class Ew_RoundingOp<string mnemonic, string rule, string example>
    : Ew_ArithUnaryOp<mnemonic> {
  let summary = "Elementwise rounding to an integral value: " # rule;
  let description = [{
    Each float element rounded to an integral value of its own type, }]
    # rule # [{; a NaN stays NaN, infinities and zeros (with their sign)
    pass through, and a negative value that rounds to zero gives -0.0
    (as C's and torch's functions). Integers pass through unchanged.

    ```mlir
    }] # example # [{
    ```
  }];
}

def Ew_FloorOp : Ew_RoundingOp<"floor", "toward negative infinity",
    "%r = ew.floor %x : !ew.tensor<[n], f32>">;
def Ew_CeilOp : Ew_RoundingOp<"ceil", "toward positive infinity",
    "%r = ew.ceil %x : !ew.tensor<[n], bf16>">;
def Ew_TruncOp : Ew_RoundingOp<"trunc", "toward zero",
    "%r = ew.trunc %x : !ew.tensor<[m, n], f64>">;
def Ew_RoundOp : Ew_RoundingOp<"round",
    "to the nearest, ties to even (as torch.round)",
    "%r = ew.round %x : !ew.tensor<[n], f16>">;

class Ew_ClassifyOp<string mnemonic, string rule>
    : Ew_ElementwiseOp<mnemonic, [],
                       [{ ::mlir::IntegerType::get(context, 1) }]> {
  let summary = "Elementwise classification: " # rule;
  let description = [{
    For each element, whether it is }] # rule # [{ (i1). An integer is
    never NaN or infinite, always finite.

    ```mlir
    %r = ew.}] # mnemonic # [{ %x : !ew.tensor<[n], f32>
    ```
  }];
  let arguments = (ins Ew_NumericValue:$operand);
  let results = (outs Ew_BoolValue:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
}

def Ew_IsNanOp : Ew_ClassifyOp<"isnan", "a NaN">;
def Ew_IsInfOp : Ew_ClassifyOp<"isinf", "an infinity of either sign">;
def Ew_IsFiniteOp : Ew_ClassifyOp<"isfinite",
                                  "finite (neither NaN nor infinite)">;

//===----------------------------------------------------------------------===//
// Logic
//===----------------------------------------------------------------------===//

def Ew_AndOp : Ew_BoolBinaryOp<"and"> {
  let summary = "Elementwise logical and";
  let description = [{
    ```mlir
    %r = ew.and %p, %q : !ew.tensor<[n], i1>, !ew.tensor<[n], i1>
    ```
  }];
}

def Ew_OrOp : Ew_BoolBinaryOp<"or"> {
  let summary = "Elementwise logical or";
  let description = [{
    ```mlir
    %r = ew.or %p, %flag : !ew.tensor<[n], i1>, i1
    ```
  }];
}

def Ew_NotOp : Ew_UnaryOp<"not", Ew_BoolValue> {
  let summary = "Elementwise logical not";
  let description = [{
    ```mlir
    %r = ew.not %p : !ew.tensor<[n], i1>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

def Ew_ExpOp : Ew_FloatUnaryOp<"exp", "e^x">;
def Ew_LogOp : Ew_FloatUnaryOp<"log", "ln(x)">;
def Ew_SqrtOp : Ew_FloatUnaryOp<"sqrt", "sqrt(x) (correctly rounded)">;
def Ew_RsqrtOp : Ew_FloatUnaryOp<"rsqrt", "1 / sqrt(x)">;
def Ew_TanhOp : Ew_FloatUnaryOp<"tanh", "tanh(x)">;
def Ew_SigmoidOp : Ew_FloatUnaryOp<"sigmoid", "sigmoid(x) = 1 / (1 + e^-x)">;
def Ew_ErfOp : Ew_FloatUnaryOp<"erf", "erf(x)">;
def Ew_ErfcOp : Ew_FloatUnaryOp<"erfc", "erfc(x) = 1 - erf(x)">;
def Ew_Exp2Op : Ew_FloatUnaryOp<"exp2", "2^x">;
def Ew_Expm1Op : Ew_FloatUnaryOp<"expm1", "e^x - 1">;
def Ew_Log2Op : Ew_FloatUnaryOp<"log2", "log2(x)">;
def Ew_Log10Op : Ew_FloatUnaryOp<"log10", "log10(x)">;
def Ew_Log1pOp : Ew_FloatUnaryOp<"log1p", "ln(1 + x)">;
def Ew_SinOp : Ew_FloatUnaryOp<"sin", "sin(x)">;
def Ew_CosOp : Ew_FloatUnaryOp<"cos", "cos(x)">;
def Ew_TanOp : Ew_FloatUnaryOp<"tan", "tan(x)">;
def Ew_AsinOp : Ew_FloatUnaryOp<"asin", "asin(x)">;
def Ew_AcosOp : Ew_FloatUnaryOp<"acos", "acos(x)">;
def Ew_AtanOp : Ew_FloatUnaryOp<"atan", "atan(x)">;
def Ew_SinhOp : Ew_FloatUnaryOp<"sinh", "sinh(x)">;
def Ew_CoshOp : Ew_FloatUnaryOp<"cosh", "cosh(x)">;
def Ew_AsinhOp : Ew_FloatUnaryOp<"asinh", "asinh(x)">;
def Ew_AcoshOp : Ew_FloatUnaryOp<"acosh", "acosh(x)">;
def Ew_AtanhOp : Ew_FloatUnaryOp<"atanh", "atanh(x)">;

// A math function of two floats; f16 and bf16 compute in f32.
class Ew_FloatBinaryOp<string mnemonic, string function, string rules>
    : Ew_BinaryOp<mnemonic, Ew_FloatValue> {
  let summary = "Elementwise " # function;
  let description = !strconcat([{
    `}], function, [{` of each pair of elements, computed on each target as
    docs/pipeline.md ("Math functions") says. }], rules, [{ f16 and bf16
    elements are computed in f32 and rounded back. Either operand may be a
    scalar.

    ```mlir
    %r = ew.}], mnemonic, [{ %y, %x : !ew.tensor<[n], f32>, f32
    ```
  }]);
}

def Ew_Atan2Op : Ew_FloatBinaryOp<"atan2", "atan2(lhs, rhs)",
    "The angle of the point (rhs, lhs), in [-pi, pi], with C's special "
    "cases (atan2(+-0, -0) = +-pi, atan2(+-0, +0) = +-0).">;
def Ew_FmaOp : Ew_ElementwiseOp<"fma",
    [Ew_AllElementTypesMatch<["a", "b", "c", "result"]>]> {
  let summary = "Elementwise fused multiply-add";
  let description = [{
    `a * b + c` for each element with one rounding (IEEE fusedMultiplyAdd),
    asked for explicitly: ew never contracts a multiply and an add on its
    own. f16 and bf16 elements compute in f32 (one rounding to f32) and
    round back. Any operand may be a scalar.

    ```mlir
    %r = ew.fma %x, %w, %b : !ew.tensor<[n], f32>, f32, !ew.tensor<[n], f32>
    ```
  }];
  let arguments = (ins Ew_FloatValue:$a, Ew_FloatValue:$b, Ew_FloatValue:$c);
  let results = (outs Ew_FloatValue:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasFolder = 1;
}

def Ew_PowOp : Ew_FloatBinaryOp<"pow", "lhs^rhs",
    "C's and torch.pow's special cases: pow(x, +-0) = 1 and pow(1, y) = 1 "
    "even for NaN, a negative base with a finite non-integral exponent "
    "gives NaN. The lowering makes an exponent of 0, 1, 2 or -1 that is a "
    "constant 1, x, x * x or 1 / x, which round the same.">;

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// A counter-based random number: Philox4x32 with 10 rounds, keyed by the
// seed, the offset as the counter, as Triton 3.6's triton/language/random.py
// computes it (docs/language.md, "Random numbers").
class Ew_RandomOp<string mnemonic, string what, code resultElement,
                  Type resultType>
    : Ew_ElementwiseOp<mnemonic, [], resultElement> {
  let summary = "Elementwise counter-based random number: " # what;
  let description = !strconcat([{
    For each element, }], what, [{ drawn from the seed and the offset, as
    Triton 3.6's `tl.}], mnemonic, [{` draws it: Philox4x32-10 with the key
    (seed's low 32 bits, high 32 bits) (the seed sign-extended to 64 bits,
    or zero-extended if unsigned) and the counter (offset's low 32 bits,
    high 32 bits of a 64-bit offset or 0, 0, 0). The same seed and offset
    give the same number in every kernel, on every target. Either operand
    may be a scalar, of any integer type. `rounds` is Triton's `n_rounds`
    (Philox's rounds; 10, the default, is what the language generates).

    ```mlir
    %r = ew.}], mnemonic, [{ %seed, %offset : i64, !ew.tensor<[n], i64>
    ```
  }]);
  // Triton's n_rounds: 10 unless set (the language always uses 10).
  let arguments = (ins Ew_IntValue:$seed, Ew_IntValue:$offset,
                   DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>,
                                     "10">:$rounds);
  let results = (outs resultType:$result);
  let assemblyFormat = [{
    $seed `,` $offset attr-dict `:` type($seed) `,` type($offset)
  }];
}

def Ew_RandOp : Ew_RandomOp<"rand",
    "a uniform f32 in [0, 1): the counter's first word x as a signed i32, "
    "max(x, -x - 1) converted to f32 and multiplied by the f32 "
    "4.6566127342e-10 (0x2FFFFFFF)",
    [{ ::mlir::Float32Type::get(context) }], Ew_FloatValue>;
def Ew_RandnOp : Ew_RandomOp<"randn",
    "a standard normal f32 by Box-Muller: with u1 and u2 the uniforms of the "
    "counter's first two words, sqrt(-2 log(max(u1, 1e-7))) * cos(2 pi u2), "
    "each step in f32",
    [{ ::mlir::Float32Type::get(context) }], Ew_FloatValue>;
def Ew_RandintOp : Ew_RandomOp<"randint",
    "the counter's first word, as an i32 (its raw 32 bits)",
    [{ ::mlir::IntegerType::get(context, 32) }], Ew_IntValue>;

//===----------------------------------------------------------------------===//
// Comparison and selection
//===----------------------------------------------------------------------===//

def Ew_CmpPredicate : I64EnumAttr<"CmpPredicate", "ew comparison predicate", [
    I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>,
    I64EnumAttrCase<"lt", 2>, I64EnumAttrCase<"le", 3>,
    I64EnumAttrCase<"gt", 4>, I64EnumAttrCase<"ge", 5>
  ]> {
  let cppNamespace = "::mlir::ew";
}

def Ew_CmpOp : Ew_ElementwiseOp<"cmp", [Ew_AllElementTypesMatch<["lhs", "rhs"]>],
    [{ ::mlir::IntegerType::get(context, 1) }]> {
  let summary = "Elementwise comparison";
  let description = [{
    Compares `lhs` and `rhs` element by element with the predicate (`eq`,
    `ne`, `lt`, `le`, `gt`, `ge`) and gives i1. Floats compare as IEEE
    ordered comparisons (any comparison with NaN is false) except `ne`, which
    is unordered (true when either side is NaN), as in C. Integers compare as
    signed; i1 compares as unsigned (false < true).

    ```mlir
    %keep = ew.cmp ge, %x, %zero : !ew.tensor<[n], f32>, f32
    ```
  }];
  let arguments = (ins Ew_CmpPredicate:$predicate, Ew_Value:$lhs,
                       Ew_Value:$rhs);
  let results = (outs Ew_BoolValue:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasFolder = 1;
}

def Ew_WhereOp : Ew_ElementwiseOp<"where",
    [Ew_AllElementTypesMatch<["true_value", "false_value", "result"]>],
    [{ ::mlir::ew::getElementType(adaptor.getTrueValue().getType()) }]> {
  let summary = "Elementwise selection";
  let description = [{
    For each element, `true_value` where `condition` is true and
    `false_value` where it is false. The condition is i1; the two values have
    the same element type. Any of the three may be a scalar.

    ```mlir
    %r = ew.where %keep, %x, %neg : !ew.tensor<[n], i1>, !ew.tensor<[n], f32>, !ew.tensor<[n], f32>
    ```
  }];
  let arguments = (ins Ew_BoolValue:$condition, Ew_Value:$true_value,
                       Ew_Value:$false_value);
  let results = (outs Ew_Value:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    type($condition) `,` type($true_value) `,` type($false_value)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

def Ew_CastOp : Ew_Op<"cast", [ElementwiseMappable, Ew_SameTensorDims, Pure]> {
  let summary = "Elementwise conversion between element types";
  let description = [{
    Converts each element to the element type of the result; a scalar casts
    to a scalar and a tensor to a tensor.

    - float to float: rounds to nearest, ties to even (widening is exact);
    - float to integer: truncates toward zero and saturates at the integer
      range; NaN gives 0;
    - integer to float: rounds to nearest even; into f16 and bf16 it goes
      through f64 (exact up to 32 bits, one more rounding for large i64 and
      u64);
    - integer to integer: sign-extends (zero-extends an unsigned source),
      or truncates (wraps);
    - i1 to a number: 0 or 1;
    - anything to i1: `x != 0` (a float NaN gives true, -0.0 false).

    ```mlir
    %h = ew.cast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], bf16>
    ```
  }];
  let arguments = (ins Ew_Value:$operand);
  let results = (outs Ew_Value:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `to` type($result)
  }];
  let hasFolder = 1;
}

def Ew_BitcastOp : Ew_Op<"bitcast", [ElementwiseMappable, Ew_SameTensorDims, Pure]> {
  let summary = "Elementwise reinterpretation of the bits of one type as another";
  let description = [{
    Each element's bits, read as the result's element type, which has the
    same width (i1 has no bit pattern and takes no part): f32, i32 and ui32;
    f16, bf16, i16 and ui16; f8E4M3FN, f8E5M2, i8 and ui8; f64, i64 and
    ui64. A scalar to a scalar, a tensor to a tensor.

    ```mlir
    %b = ew.bitcast %x : !ew.tensor<[n], f32> to !ew.tensor<[n], ui32>
    ```
  }];
  let arguments = (ins Ew_Value:$operand);
  let results = (outs Ew_Value:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `to` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Named dimensions
//===----------------------------------------------------------------------===//

def Ew_BroadcastOp : Ew_Op<"broadcast", [Pure]> {
  let summary = "A tensor over more dimensions, or in another order";
  let description = [{
    The operand as a tensor over the result's dimensions, which include all
    of the operand's: the element of the result at a point is the operand's
    element at the same point (its coordinates along the operand's
    dimensions), so the result is the same along every dimension the
    operand lacks. A result with the operand's dimensions in another order
    is the same value (orders are not observable in values). The element
    types match.

    ```mlir
    %bb = ew.broadcast %b : !ew.tensor<[n], f32> to !ew.tensor<[m, n], f32>
    %yt = ew.broadcast %y : !ew.tensor<[n, m], f32> to !ew.tensor<[m, n], f32>
    ```
  }];
  let arguments = (ins Ew_Tensor:$operand);
  let results = (outs Ew_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `to` type($result)
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Ew_IndexOp : Ew_Op<"index", [Pure]> {
  let summary = "The position of each element along a dimension";
  let description = [{
    A tensor over the one dimension `dim` whose element at position `i` is
    `i` (i64, from 0). `dim` is a dimension of the kernel. For the batch
    `...` (any number of dimensions) it is each element's row-major
    position among the batch's points (the language's `index_flat()`), not
    supported yet in a kernel with reductions or scans.

    ```mlir
    %i = ew.index "n" : !ew.tensor<[n], i64>
    %p = ew.index "..." : !ew.tensor<[...], i64>
    ```
  }];
  let arguments = (ins StrAttr:$dim);
  let results = (outs Ew_Tensor:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Ew_SizeOp : Ew_Op<"size", [Pure]> {
  let summary = "The extent of a dimension";
  let description = [{
    The number of elements along dimension `dim` of the kernel (i64), a
    runtime value. Not the batch `...`.

    ```mlir
    %n = ew.size "n" : i64
    ```
  }];
  let arguments = (ins StrAttr:$dim);
  let results = (outs I64:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

// A reduction or a scan: `operand` combined along the dimensions `dims` by
// the region, after Triton's tt.reduce/tt.scan (ReduceScanCommon.h). The
// region takes the running value and the next element and yields the new
// running value; `init` is the identity the running value starts from (so an
// empty dimension gives `init`).
//
// Two forms. In a kernel the operand is a tensor that has every dimension
// of `dims`. In the element function that convert-ew-to-arith makes (one
// element of each value, docs/design.md) the operand and the result are
// elements: the op then stands for the combination of the operand's
// elements along `dims`, which the access layer expands into loops that
// evaluate the operand's code at each point of the dimensions.
class Ew_CombineOp<string mnemonic, string summaryText, string rule>
    : Ew_Op<mnemonic, [Pure, SingleBlock]> {
  let summary = summaryText;
  let arguments = (ins Ew_Value:$operand, StrArrayAttr:$dims,
                       TypedAttrInterface:$init);
  let results = (outs Ew_Value:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $operand `over` $dims `init` $init attr-dict `:` type($operand) `to`
    type($result) $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The dimensions as strings, in the order written.
    ::llvm::SmallVector<::llvm::StringRef> getDimNames() {
      ::llvm::SmallVector<::llvm::StringRef> names;
      for (::mlir::Attribute dim : getDims())
        names.push_back(::llvm::cast<::mlir::StringAttr>(dim).getValue());
      return names;
    }
    /// The element type the region combines.
    ::mlir::Type getCombinedType() {
      return ::mlir::ew::getElementType(getOperand().getType());
    }
  }];
  let description = !strconcat([{
    The operand's elements combined by the region, in index order of the
    dimensions (the running value first, the next element second), starting
    from `init`. }], rule, [{

    ```mlir
    %s = ew.}], mnemonic, [{ %x over ["n"] init 0.0 : f32
        : !ew.tensor<[m, n], f32> to !ew.tensor<[m], f32> {
    ^bb0(%acc: f32, %next: f32):
      %r = ew.add %acc, %next : f32, f32
      ew.yield %r : f32
    }
    ```
  }]);
}

def Ew_ReduceOp : Ew_CombineOp<"reduce",
    "A reduction over named dimensions",
    [{The result is the operand's dimensions without `dims` (a scalar when
    none is left): `sum(x, n)`, `amax(x, n)`, `any(b, h, w)`.}]>;

def Ew_ScanOp : Ew_CombineOp<"scan",
    "An inclusive scan along a named dimension",
    [{`dims` is one dimension; the result has the operand's type, and its
    element at position `i` of the dimension combines the elements at
    positions 0 to `i`: `cumsum(x, n)`.}]>;

def Ew_YieldOp : Ew_Op<"yield", [Pure, ReturnLike, Terminator,
                                 ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "The new running value of a reduction or a scan";
  let arguments = (ins Ew_Element:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // EWC_DIALECT_EW_IR_EWOPS_TD
