//===- EwTypes.td - ew dialect types -----------------------*- tablegen -*-===//
//
// The ew tensor type: an element type and the names of the dimensions a
// value ranges over (scalars are the builtin element types themselves); and
// the attributes the GPU lowering leaves on its code: the thread-to-element
// layout of a loop nest and the launch descriptor of a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_DIALECT_EW_IR_EWTYPES_TD
#define EWC_DIALECT_EW_IR_EWTYPES_TD

include "ewc/Dialect/Ew/IR/EwDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Ew_TensorType : TypeDef<Ew_Dialect, "NamedTensor"> {
  let mnemonic = "tensor";
  let summary = "A tensor over named dimensions";
  let description = [{
    A tensor of `elementType` over the dimensions `dims`, each a name (or
    `...`, first, for any number of leading dimensions: the batch). The
    extents are runtime values, one per name in a kernel. The order is the
    memory order for a kernel's parameters and results (their declared
    order; the strides are runtime values too) and carries no meaning for
    other values, which MLIRGen writes in the kernel's order of dimensions.

    ```mlir
    !ew.tensor<[n], f32>
    !ew.tensor<[m, n], bf16>
    !ew.tensor<[..., n], f32>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "dimension names">:$dims,
    "::mlir::Type":$elementType
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<::mlir::StringAttr>":$dims,
        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), dims, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The spelling of the batch dimension in `dims`.
    static constexpr ::llvm::StringLiteral kBatchDim = "...";

    unsigned getRank() const { return getDims().size(); }
    /// The position of dimension `name`, or std::nullopt.
    std::optional<unsigned> getDimPosition(::llvm::StringRef name) const;
    bool hasDim(::llvm::StringRef name) const {
      return getDimPosition(name).has_value();
    }
    /// This type with another element type.
    NamedTensorType withElementType(::mlir::Type elementType) const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Attributes of the lowered code
//===----------------------------------------------------------------------===//

def Ew_BlockedLayoutAttr : AttrDef<Ew_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "How the threads of a block share the points of a loop nest";
  let description = [{
    The thread-to-element mapping of a GPU loop nest, on its points in
    row-major order (the flat index): a block takes chunks of `threads x
    atom x atoms` consecutive points, one chunk per block and step of a
    grid-stride loop over chunks; in a chunk, thread t holds the atoms a = 0
    .. atoms - 1, `atom` consecutive points each, the first at chunk start +
    (a x threads + t) x atom. The threads of a warp so touch one contiguous
    range of points for each a (coalesced), and an atom of a tensor that is
    contiguous along the innermost dimension is one vector access of up to
    16 bytes (several for a tensor wider than the one the atom is sized
    for). `atom = 1, atoms = 1` is the scalar grid-stride loop, `atom = 1,
    atoms = E` the coalesced unrolled scalar loop (point k of thread t at
    chunk offset k x threads + t). convert-ew-to-gpu proposes a layout,
    ew-vectorize-gpu-loops realizes it (or leaves the scalar loop and says
    why in a remark).

    ```mlir
    #ew.blocked<threads = 128, atom = 4, atoms = 2>
    ```
  }];
  let parameters = (ins "unsigned":$threads, "unsigned":$atom,
                        "unsigned":$atoms);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Points per thread and step: atom x atoms.
    unsigned getElementsPerThread() const { return getAtom() * getAtoms(); }
    bool isScalar() const { return getElementsPerThread() == 1; }
  }];
}

def Ew_TiledLayoutAttr : AttrDef<Ew_Dialect, "TiledLayout"> {
  let mnemonic = "tiled";
  let summary = "How the threads of a block share a nest's points in square tiles";
  let description = [{
    The thread-to-element mapping of a GPU loop nest that reads a tensor
    across its innermost dimension (a transposed view): the two innermost
    dimensions are cut into `tile x tile` tiles, one tile per block and step
    of a grid-stride loop over the tiles (the outer dimensions, then the
    tiles' rows and columns, in row-major order). Each tile is two phases
    with a barrier between them: the staged tensors are copied into shared
    memory with thread t at column t mod tile of rows t / tile + k x
    (threads / tile) of their own contiguous dimension (the nest's second
    innermost), so a warp reads one contiguous run; then thread t computes
    the points of column t mod tile and those rows of the nest, reading the
    staged tensors from shared memory (rows padded by one element against
    bank conflicts) and everything else as the scalar loop does, so a warp
    writes one contiguous run of each result. convert-ew-to-gpu builds it
    for the tensors of the kernel's `ew.tiled_tensors`.

    ```mlir
    #ew.tiled<threads = 256, tile = 32>
    ```
  }];
  let parameters = (ins "unsigned":$threads, "unsigned":$tile);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The tile rows one pass of the block covers: threads / tile.
    unsigned getRowsPerPass() const { return getThreads() / getTile(); }
  }];
}

def Ew_LaunchAttr : AttrDef<Ew_Dialect, "Launch"> {
  let mnemonic = "launch";
  let summary = "How a GPU kernel is launched: the launch descriptor";
  let description = [{
    On every lowered gpu.func, what the runtime needs to launch it, decided
    by the lowering and kept with the compiled code (the kernel cache and
    the exported header serialize it): blocks of `block_size` threads (1-D),
    `shared_memory` bytes of dynamic shared memory, and a grid of one block
    per `block_size x elements_per_thread` points of the kernel's largest
    loop nest (ceil, at most 2^31 - 1; every nest is a grid-stride loop, so
    any grid is correct). `schedule` names the rule: `elementwise` is the
    one above; `tiled` (a kernel whose nest has the #ew.tiled layout) is a
    grid of one block per tile of the tiled nest (ceil, at most 2^31 - 1;
    the loop over the tiles has a grid stride too), `elements_per_thread`
    then being the points of a tile per thread; `rows` (a kernel with a
    nest of the rows schedule, ewc/ABI/RowAccess.h) is a grid of one block
    per point of the largest nest (at least one per row: a row's team may be
    the whole block), at most 4 waves of resident blocks, the block size
    required. A `rows` kernel also names, for each of its nests of the rows
    schedule, the dimensions along which its teams read a row (`row_dims`):
    the runtime takes the longest such row at a launch to choose the
    variant's block (ewc::getRowsBlockSize). `columns` (a kernel whose one
    nest reduces across rows, ewc/ABI/ColumnAccess.h) is a grid of
    `tiles x splits` blocks: a tile per 32 consecutive points of the nest,
    and `splits` blocks per tile (ewc::chooseColumnSplits, from the
    reduction's length: its `row_dims`, one list of the reduced
    dimensions), the block size required; with more than one split the
    kernel takes one more argument after the ABI's, a pointer to a
    workspace of ewc::getColumnWorkspaceWords 8-byte words, the tickets
    zeroed, for `workspace` partials (the kernel's reductions) per split
    and point. A `rows` kernel with a `workspace` (its one nest scans along
    rows, ewc/ABI/ScanAccess.h) takes that argument too: null for a warp
    per row, else a workspace of ewc::getScanWorkspaceWords words for
    `workspace` scans, the counter and the tiles' flags zeroed, and a grid
    of `rows x splits` blocks (ewc::chooseScanSplits). A `rows` kernel whose
    nest keeps the row's points on its lanes (decode attention's head:
    RowSplit::laneDims) names those dimensions (`lane_dims`): the runtime
    takes their extent to choose the variant of the pass
    (ewc::getLanePass).

    ```mlir
    #ew.launch<schedule = "elementwise", block_size = 128,
               elements_per_thread = 4, shared_memory = 0>
    #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1,
               shared_memory = 0, row_dims = [["n"]]>
    #ew.launch<schedule = "columns", block_size = 256, elements_per_thread = 1,
               shared_memory = 0, row_dims = [["m"]], workspace = 1>
    #ew.launch<schedule = "rows", block_size = 128, elements_per_thread = 1,
               shared_memory = 0, row_dims = [["n"]], workspace = 1>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$schedule,
                        "unsigned":$block_size,
                        "unsigned":$elements_per_thread,
                        "unsigned":$shared_memory,
                        OptionalParameter<"::mlir::ArrayAttr">:$row_dims,
                        DefaultValuedParameter<"unsigned", "0">:$workspace,
                        OptionalParameter<"::mlir::ArrayAttr">:$lane_dims);
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "::mlir::StringAttr":$schedule, "unsigned":$block_size,
                     "unsigned":$elements_per_thread,
                     "unsigned":$shared_memory), [{
      return $_get($_ctxt, schedule, block_size, elements_per_thread,
                   shared_memory, ::mlir::ArrayAttr(), 0, ::mlir::ArrayAttr());
    }]>,
    AttrBuilder<(ins "::mlir::StringAttr":$schedule, "unsigned":$block_size,
                     "unsigned":$elements_per_thread,
                     "unsigned":$shared_memory, "::mlir::ArrayAttr":$row_dims), [{
      return $_get($_ctxt, schedule, block_size, elements_per_thread,
                   shared_memory, row_dims, 0, ::mlir::ArrayAttr());
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The schedules' names (convert-ew-to-gpu's EwToGPU.h says what each
    /// means for the lowering).
    static constexpr ::llvm::StringLiteral kElementwiseSchedule = "elementwise";
    static constexpr ::llvm::StringLiteral kTiledSchedule = "tiled";
    static constexpr ::llvm::StringLiteral kRowsSchedule = "rows";
    static constexpr ::llvm::StringLiteral kColumnsSchedule = "columns";
  }];
}

#endif // EWC_DIALECT_EW_IR_EWTYPES_TD
