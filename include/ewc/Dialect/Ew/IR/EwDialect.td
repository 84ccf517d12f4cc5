//===- EwDialect.td - The ew dialect -----------------------*- tablegen -*-===//
//
// The `ew` dialect: elementwise kernels over tensors with named dimensions,
// at the level of the .ew language. Each op computes its result at every
// point of its dimensions from its operands at that point; scalar operands
// broadcast to all elements, tensors by name through ew.broadcast.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWDIALECT_TD
#define EWC_DIALECT_EW_IR_EWDIALECT_TD

include "mlir/IR/OpBase.td"

def Ew_Dialect : Dialect {
  let name = "ew";
  let summary = "Elementwise kernels over tensors with named dimensions";
  let description = [{
    The `ew` dialect is the first MLIR level of ewc. An `ew.kernel` is a
    function of tensors and scalars; a tensor's type names its dimensions
    (`!ew.tensor<[m, n], f32>`, `!ew.tensor<[..., n], bf16>`, where `...`
    stands for any number of leading dimensions, the batch), and a
    dimension name means the same extent throughout the kernel. Extents are
    runtime values. Values are tensors or scalars of the element types i1,
    i32, i64, f16, bf16, f32 and f64.

    Elementwise ops take tensors of identical dimensions, or scalars, which
    stand for the same value at every element. Broadcasting by name is
    explicit: `ew.broadcast` gives a value dimensions it lacks (and another
    order of its dimensions, which is not observable in a value). A kernel's
    result element at a point of its dimensions is computed from the
    elements of the inputs at the same point (an input lacking a dimension
    is the same along it).

    The dialect has value semantics and no side effects: the lowerings in
    `Conversion/` turn a kernel into loops over its dimensions (a GPU grid
    or CPU loops) that read and write strided memory (docs/design.md).
  }];
  let cppNamespace = "::mlir::ew";
  let hasConstantMaterializer = 1;
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the types and attributes (EwOps.cpp, beside their
    /// definitions).
    void registerTypes();
    void registerAttributes();
  }];
}

#endif // EWC_DIALECT_EW_IR_EWDIALECT_TD
