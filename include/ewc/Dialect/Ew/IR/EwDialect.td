//===- EwDialect.td - The ew dialect -----------------------*- tablegen -*-===//
//
// The `ew` dialect: elementwise kernels over 1-D tensors of one length n, at
// the level of the .ew language. Each op computes out[i] = f(in[i], ...) for
// every i; scalar operands broadcast to all elements.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWDIALECT_TD
#define EWC_DIALECT_EW_IR_EWDIALECT_TD

include "mlir/IR/OpBase.td"

def Ew_Dialect : Dialect {
  let name = "ew";
  let summary = "Elementwise kernels over 1-D tensors with scalar broadcasting";
  let description = [{
    The `ew` dialect is the first MLIR level of ewc. An `ew.kernel` is a
    function whose tensor parameters and results all have the same dynamic
    length `n`; its body computes each result element from the elements at
    the same index of the inputs. Values are either 1-D tensors
    (`tensor<?xT>`) or scalars of the element types i1, i32, i64, f16, bf16,
    f32 and f64; an op with a tensor operand has a tensor result and uses
    its scalar operands at every element (broadcasting).

    The dialect has value semantics and no side effects: the lowerings in
    `Conversion/` turn a kernel into a loop over the elements (a GPU grid or a
    CPU loop) that loads inputs and stores results through plain pointers.
  }];
  let cppNamespace = "::mlir::ew";
  let hasConstantMaterializer = 1;
}

#endif // EWC_DIALECT_EW_IR_EWDIALECT_TD
