//===- EwOps.td - ew dialect operations --------------------*- tablegen -*-===//
//
// The ops of the ew dialect: the kernel and its terminator, constants, and
// the elementwise arithmetic, comparison and selection ops. Every value op
// infers its result type from its operands (tensor if any operand is a
// tensor), so the custom assembly lists operand types only.
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

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Ew_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ew_Dialect, mnemonic, traits>;

// An elementwise op with broadcasting: its result type is computed by
// `inferReturnTypes`, which is also where operand mismatches are rejected.
class Ew_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Ew_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  let results = (outs Ew_Value:$result);
}

// Binary arithmetic: both operands have the same element type; the result
// has that element type.
class Ew_BinaryArithOp<string mnemonic, list<Trait> traits = []>
    : Ew_ElementwiseOp<mnemonic, traits> {
  let arguments = (ins Ew_Value:$lhs, Ew_Value:$rhs);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasFolder = 1;
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
    results, in order, with the kernel's result types.

    ```mlir
    ew.return %r : tensor<?xf32>
    ```
  }];
  let arguments = (ins Variadic<Ew_Tensor>:$operands);
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

def Ew_AddOp : Ew_BinaryArithOp<"add", [Commutative]> {
  let summary = "Elementwise addition";
  let description = [{
    `lhs + rhs` for each element; integers wrap around.

    ```mlir
    %r = ew.add %x, %y : tensor<?xf32>, tensor<?xf32>
    ```
  }];
}

def Ew_SubOp : Ew_BinaryArithOp<"sub"> {
  let summary = "Elementwise subtraction";
  let description = [{
    `lhs - rhs` for each element; integers wrap around.

    ```mlir
    %r = ew.sub %x, %one : tensor<?xf32>, f32
    ```
  }];
}

def Ew_MulOp : Ew_BinaryArithOp<"mul", [Commutative]> {
  let summary = "Elementwise multiplication";
  let description = [{
    `lhs * rhs` for each element; integers wrap around. A scalar operand
    multiplies every element.

    ```mlir
    %r = ew.mul %slope, %x : f32, tensor<?xf32>
    ```
  }];
}

def Ew_DivOp : Ew_BinaryArithOp<"div"> {
  let summary = "Elementwise floating-point division";
  let description = [{
    `lhs / rhs` for each element, IEEE division. Floating-point only: integer
    division needs a defined result for a zero divisor first.

    ```mlir
    %r = ew.div %x, %y : tensor<?xf32>, tensor<?xf32>
    ```
  }];
}

def Ew_NegOp : Ew_ElementwiseOp<"neg"> {
  let summary = "Elementwise negation";
  let description = [{
    `-operand` for each element (flips the sign bit of floats, so
    `neg(0.0)` is `-0.0`; integers wrap around).

    ```mlir
    %r = ew.neg %x : tensor<?xf32>
    ```
  }];
  let arguments = (ins Ew_Value:$operand);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasFolder = 1;
}

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

def Ew_CmpOp : Ew_ElementwiseOp<"cmp"> {
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
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasFolder = 1;
}

def Ew_WhereOp : Ew_ElementwiseOp<"where"> {
  let summary = "Elementwise selection";
  let description = [{
    For each element, `true_value` where `condition` is true and
    `false_value` where it is false. The condition is i1; the two values have
    the same element type. Any of the three may be a scalar.

    ```mlir
    %r = ew.where %keep, %x, %neg : tensor<?xi1>, tensor<?xf32>, tensor<?xf32>
    ```
  }];
  let arguments = (ins Ew_Value:$condition, Ew_Value:$true_value,
                       Ew_Value:$false_value);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    type($condition) `,` type($true_value) `,` type($false_value)
  }];
  let hasFolder = 1;
}

#endif // EWC_DIALECT_EW_IR_EWOPS_TD
