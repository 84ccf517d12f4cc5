//===- EwOps.td - ew dialect operations --------------------*- tablegen -*-===//
//
// The ops of the ew dialect: the kernel and its terminator, constants, the
// elementwise arithmetic, logic, math, comparison and selection ops, and the
// cast. Every value op but the cast infers its result type from its operands
// (tensor if any operand is a tensor), so the custom assembly lists operand
// types only.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWOPS_TD
#define EWC_DIALECT_EW_IR_EWOPS_TD

include "ewc/Dialect/Ew/IR/EwDialect.td"
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

// All tensors of a kernel have the kernel's one dynamic length n, so only
// `tensor<?xT>` is an ew tensor; a static length would be a second length.
def Ew_Tensor : Type<
    CPred<"::mlir::ew::isTensor($_self) && ::mlir::ew::isValueType($_self)">,
    "1-D tensor of dynamic length", "::mlir::RankedTensorType">;

def Ew_Value : AnyTypeOf<[Ew_Element, Ew_Tensor], "ew tensor or scalar">;

// An ew value (T or tensor<?xT>) whose element type T satisfies `pred`, a
// predicate on `$_self`'s element type `$_elem`.
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

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Ew_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ew_Dialect, mnemonic, traits>;

// An elementwise op with scalar broadcasting: the result is a tensor exactly
// when an operand is (ElementwiseMappable checks that), with the element type
// `resultElement` (C++ over `adaptor`; by default the first operand's).
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
    : Ew_Op<mnemonic, !listconcat([ElementwiseMappable], traits,
                                  [Pure, InferTypeOpAdaptor])> {
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
                       !listconcat([SameOperandsAndResultElementType],
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
                       !listconcat([SameOperandsAndResultElementType],
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
    %r = ew.}], mnemonic, [{ %x : tensor<?xf32>
    ```
  }]);
}

//===----------------------------------------------------------------------===//
// KernelOp and ReturnOp
//===----------------------------------------------------------------------===//

def Ew_KernelOp : Ew_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove
  ]> {
  let summary = "An elementwise kernel over tensors of one length n";
  let description = [{
    A kernel has 1-D tensor parameters (`tensor<?xT>`, all of the kernel's
    length n) and scalar parameters (runtime values), and returns one or more
    tensors of length n. Its single block computes the results element by
    element; scalars broadcast. A scalar parameter may carry a default value
    in the argument attribute `ew.default`, of the parameter's type.

    ```mlir
    ew.kernel @leaky_relu(%x: tensor<?xf32>,
                          %slope: f32 {ew.default = 0.01 : f32})
        -> tensor<?xf32> {
      %zero = ew.constant 0.000000e+00 : f32
      %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
      %neg = ew.mul %slope, %x : f32, tensor<?xf32>
      %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
      ew.return %r : tensor<?xf32>
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
    results, in order. Each has the kernel's result type `tensor<?xT>` or is a
    scalar of type T, which fills the result (every element is the scalar).

    ```mlir
    ew.return %r, %zero : tensor<?xf32>, f32
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
    %r = ew.add %x, %y : tensor<?xf32>, tensor<?xf32>
    ```
  }];
}

def Ew_SubOp : Ew_ArithBinaryOp<"sub"> {
  let summary = "Elementwise subtraction";
  let description = [{
    `lhs - rhs` for each element; integers wrap around.

    ```mlir
    %r = ew.sub %x, %one : tensor<?xf32>, f32
    ```
  }];
}

def Ew_MulOp : Ew_ArithBinaryOp<"mul", [Commutative]> {
  let summary = "Elementwise multiplication";
  let description = [{
    `lhs * rhs` for each element; integers wrap around. A scalar operand
    multiplies every element.

    ```mlir
    %r = ew.mul %slope, %x : f32, tensor<?xf32>
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
    %r = ew.div %x, %y : tensor<?xi32>, tensor<?xi32>
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
    %r = ew.max %x, %zero : tensor<?xf32>, f32
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
    %r = ew.min %x, %y : tensor<?xi64>, tensor<?xi64>
    ```
  }];
}

def Ew_NegOp : Ew_ArithUnaryOp<"neg"> {
  let summary = "Elementwise negation";
  let description = [{
    `-operand` for each element (flips the sign bit of floats, so
    `neg(0.0)` is `-0.0`; integers wrap around).

    ```mlir
    %r = ew.neg %x : tensor<?xf32>
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
    %r = ew.abs %x : tensor<?xi32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Logic
//===----------------------------------------------------------------------===//

def Ew_AndOp : Ew_BoolBinaryOp<"and"> {
  let summary = "Elementwise logical and";
  let description = [{
    ```mlir
    %r = ew.and %p, %q : tensor<?xi1>, tensor<?xi1>
    ```
  }];
}

def Ew_OrOp : Ew_BoolBinaryOp<"or"> {
  let summary = "Elementwise logical or";
  let description = [{
    ```mlir
    %r = ew.or %p, %flag : tensor<?xi1>, i1
    ```
  }];
}

def Ew_NotOp : Ew_UnaryOp<"not", Ew_BoolValue> {
  let summary = "Elementwise logical not";
  let description = [{
    ```mlir
    %r = ew.not %p : tensor<?xi1>
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

def Ew_CmpOp : Ew_ElementwiseOp<"cmp", [SameOperandsElementType],
    [{ ::mlir::IntegerType::get(context, 1) }]> {
  let summary = "Elementwise comparison";
  let description = [{
    Compares `lhs` and `rhs` element by element with the predicate (`eq`,
    `ne`, `lt`, `le`, `gt`, `ge`) and gives i1. Floats compare as IEEE
    ordered comparisons (any comparison with NaN is false) except `ne`, which
    is unordered (true when either side is NaN), as in C. Integers compare as
    signed; i1 compares as unsigned (false < true).

    ```mlir
    %keep = ew.cmp ge, %x, %zero : tensor<?xf32>, f32
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
    [AllElementTypesMatch<["true_value", "false_value", "result"]>],
    [{ ::mlir::ew::getElementType(adaptor.getTrueValue().getType()) }]> {
  let summary = "Elementwise selection";
  let description = [{
    For each element, `true_value` where `condition` is true and
    `false_value` where it is false. The condition is i1; the two values have
    the same element type. Any of the three may be a scalar.

    ```mlir
    %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
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

def Ew_CastOp : Ew_Op<"cast", [ElementwiseMappable, Pure]> {
  let summary = "Elementwise conversion between element types";
  let description = [{
    Converts each element to the element type of the result; a scalar casts
    to a scalar and a tensor to a tensor.

    - float to float: rounds to nearest, ties to even (widening is exact);
    - float to integer: truncates toward zero and saturates at the integer
      range; NaN gives 0;
    - integer to float: rounds to nearest even; into f16 and bf16 it goes
      through f64 (exact for i32, one more rounding for large i64);
    - integer to integer: sign-extends, or truncates (wraps);
    - i1 to a number: 0 or 1;
    - anything to i1: `x != 0` (a float NaN gives true, -0.0 false).

    ```mlir
    %h = ew.cast %x : tensor<?xf32> to tensor<?xbf16>
    ```
  }];
  let arguments = (ins Ew_Value:$operand);
  let results = (outs Ew_Value:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `to` type($result)
  }];
  let hasFolder = 1;
}

#endif // EWC_DIALECT_EW_IR_EWOPS_TD
