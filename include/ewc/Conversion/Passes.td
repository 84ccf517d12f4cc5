//===- Passes.td - ew conversion passes --------------------*- tablegen -*-===//
//
// The lowerings out of the ew dialect: to a GPU kernel (convert-ew-to-gpu,
// then ew-vectorize-gpu-loops) and to a CPU loop nest (convert-ew-to-loops,
// and ew-cpu-bf16-as-i16 on its LLVM-dialect code). Both give a kernel the same ABI (docs/abi.md): its tensors as strided
// memrefs, inputs then results, scalars by value. And the last GPU steps,
// gpu.module to PTX with the libdevice built into ewc (gpu-module-to-ptx) and
// the PTX rewrites for ptxas (ptxas-workarounds).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_PASSES_TD
#define EWC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertEwToGPU : Pass<"convert-ew-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower ew kernels to GPU kernels over strided memrefs";
  let description = [{
    Turns every `ew.kernel` into a `gpu.func ... kernel` inside one
    `gpu.module`, with the ABI of docs/abi.md (lib/ABI/KernelSignature.h
    says it in code): each tensor parameter, then each result, is a
    `memref<?x...xT, strided<[...], offset: ?>, 1>` over its own
    dimensions in declared order (unit innermost stride in the default
    variant, `?` in the strided ones: the access layer, KernelABI.h), each
    scalar is passed by value. The body is one grid-stride loop over the
    flat points of the kernel's iteration space, delinearized into
    coordinates; each tensor is loaded at its own indices (a tensor without
    some dimension, s[m] beside x[m, n], at the ones it has), the element
    function computes on scalars (arith, math), and each result is stored
    at its indices. Indices are `index` (64-bit): any extent, 2^31 and more.

    The loop is marked with the layout it realizes (`ew.layout =
    #ew.blocked<threads = 128, atom = 1, atoms = 1>`: one point per thread
    and step), which `ew-vectorize-gpu-loops` then widens; the kernel gets
    its launch descriptor `ew.launch` (schedule, block size, elements per
    thread, shared memory), which the driver serializes and the runtime
    launches from.

    In the GPU's tiled variant (the kernel attribute `ew.tiled_tensors`,
    ewc/ABI/TiledAccess.h) a nest that reads one of those tensors with both
    its innermost dimensions is instead a grid-stride loop over 64 x 64
    tiles of them (`#ew.tiled<threads = 256, tile = 64>`): the tensors are
    staged through workgroup buffers along their own contiguous dimension,
    a `gpu.barrier`, and the points computed along the results' rows; the
    kernel's schedule is then `tiled` (one block of 256 threads per tile,
    `known_block_size`).

    A nest with reductions (`ew.reduce`, `ew.scan` in their element form)
    that run along a tensor's last dimension is a loop of teams over its
    rows instead (the rows schedule, ewc/ABI/RowAccess.h, RowLoops.cpp):
    each team, of one lane to a block by the row's length, computes the
    row's reductions together, lane-strided and combined with `gpu.shuffle
    xor` (and, for a team of several warps, through shared memory between
    two `gpu.barrier`s), then shares the row's points; the kernel's
    schedule is `rows` (blocks of 128 threads, `known_block_size`, or of
    the kernel's `ew.rows_block_size`: the variant the runtime builds for
    longer rows; the descriptor names each nest's row in `row_dims`). Other nests with
    reductions or scans keep the grid-stride loop, a thread per point
    combining in index order, without a layout to vectorize.

    Before:
    ```mlir
    ew.kernel @bias_scale(%x: !ew.tensor<[m, n], f32>, %s: f32,
                          %b: !ew.tensor<[n], f32>) -> !ew.tensor<[m, n], f32> {
      %0 = ew.mul %x, %s : !ew.tensor<[m, n], f32>, f32
      %1 = ew.broadcast %b : <[n], f32> to <[m, n], f32>
      %2 = ew.add %0, %1 : !ew.tensor<[m, n], f32>, !ew.tensor<[m, n], f32>
      ew.return %2 : !ew.tensor<[m, n], f32>
    }
    ```
    After:
    ```mlir
    gpu.module @ewc_kernels {
      gpu.func @ew$bias_scale(%x: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>,
          %s: f32, %b: memref<?xf32, strided<[1], offset: ?>, 1>,
          %out: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>) kernel
          attributes {ew.launch = #ew.launch<schedule = "elementwise",
            block_size = 128, elements_per_thread = 1, shared_memory = 0>} {
        // %points = m * n, %start = block_id * block_dim + thread_id,
        // %step = grid_dim * block_dim
        scf.for %f = %start to %points step %step {
          %c:2 = affine.delinearize_index %f into (%m, %n) : index, index
          %0 = memref.load %x[%c#0, %c#1] : memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
          %1 = memref.load %b[%c#1] : memref<?xf32, strided<[1], offset: ?>, 1>
          %2 = arith.mulf %0, %s : f32
          %3 = arith.addf %2, %1 : f32
          memref.store %3, %out[%c#0, %c#1] : memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
        } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
        gpu.return
      }
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::ub::UBDialect",
  ];
  let options = [
    Option<"gpuModuleName", "gpu-module-name", "std::string",
           /*default=*/"\"ewc_kernels\"",
           "Name of the gpu.module that receives the kernels">,
    Option<"tileSize", "tile-size", "unsigned", /*default=*/"0",
           "The edge of the tiled variant's tiles, a power of two from 16 to "
           "128 (0: ewc/ABI/TiledAccess.h's kTileSize); a knob for measuring">,
    Option<"rowsBlockSize", "rows-block-size", "unsigned", /*default=*/"0",
           "The rows schedule's block and largest team, a power of two from "
           "32 to 1024 (0: ewc/ABI/RowAccess.h's kRowsBlockSize); a kernel's "
           "ew.rows_block_size (the variant the runtime asks for) comes "
           "first; a knob for measuring">,
    Option<"rowsResident", "rows-resident", "unsigned", /*default=*/"0",
           "The elements of its row that a lane of the rows schedule keeps "
           "in registers, 1 to 64 (0: none, the looping teams); a kernel's "
           "ew.rows_resident (the variant the runtime asks for) comes first">,
    Option<"rowsTeam", "rows-team", "unsigned", /*default=*/"0",
           "The lanes of the rows schedule's teams, a constant power of two "
           "up to the block (0: by the row's length, in the kernel); a "
           "kernel's ew.rows_team comes first">,
  ];
}

def EwVectorizeGPULoops : Pass<"ew-vectorize-gpu-loops", "::mlir::ModuleOp"> {
  let summary = "Realize the #ew.blocked layout of GPU loop nests with "
                "16-byte vector accesses";
  let description = [{
    Rewrites each scalar grid-stride loop that `convert-ew-to-gpu` left in a
    `gpu.func` (one point of the nest per thread and step, the loop marked
    with a scalar `ew.layout`) into the layout `#ew.blocked<threads, atom,
    atoms>` (EwTypes.td): chunks of blockDim x atom x atoms points per block
    and step, thread t's k-th atom the `atom` consecutive points at chunk
    offset (k x blockDim + t) x atom, so that each warp-wide access of one k
    is contiguous. It vectorizes along the innermost dimension of the nest:

    - a tensor that has the innermost dimension as its own innermost one,
      with a static unit stride, is moved with `vector.load`/`vector.store`
      of up to 16 bytes (`atom` elements, or several 16-byte vectors for a
      tensor wider than the widest output); `atom` is 16 bytes of the
      widest such output;
    - a tensor without the innermost dimension (s[m] beside x[m, n]) is
      loaded once per atom and used for all its points;
    - any other tensor (a runtime innermost stride: a strided variant) is
      read or written with `atom` scalar accesses;
    - bool tensors move as their bytes (i8).

    Vectors need aligned addresses, which only the runtime knows, so the
    loop is versioned with `scf.if` on checks made once per thread:

    - one row (every outer extent 1: a 1-D nest, or a contiguous tensor that
      the launch merged into one row): a scalar prologue up to the first
      point where every vectorized tensor is aligned, if one point aligns
      them all, then the vector loop;
    - several rows: the vector loop if every vectorized tensor's rows start
      aligned (base address and offset, and each outer stride times the
      element size) and the innermost extent is a multiple of `atom`;

    and the original loop runs the tail after the whole chunks (every point
    where no check holds). The runtime evaluates the same checks before the
    launch (ewc/ABI/VectorAccess.h) and launches, where they fail, the
    shifted variant (`ew.shifted_tensors`, one row: the peel aligns the
    outputs, each listed input is checked to sit its shift past an aligned
    address there and is read by the two aligned vectors around each of its
    vectors and a shuffle, its first vector at least one atom into the
    row and its last one vector before the row's end), or the
    unaligned variant, whose kernel has the attribute `ew.unaligned`: its
    loop becomes a coalesced unrolled scalar loop (`atom = 1, atoms = E`),
    as torch falls back to, with no checks. Apart, each kernel is allocated
    the registers it needs (together, the scalar loop's set the count).
    Coordinates of the points of a thread come from one division and
    additions with a carry, not a division each. The points
    per thread and step, E = atom x atoms, follow the cost of the element
    code (`vectors-per-thread` 16-byte vectors of the widest vectorized
    tensor, chosen from the number of long-latency operations when 0,
    VectorizeGPULoops.h says why). Each main loop's `ew.layout` says what
    it realizes, and the kernel's `ew.launch` gets E as its
    `elements_per_thread`. A loop that it cannot vectorize (no tensor with
    a unit innermost stride, an access that is not at the point's
    coordinates, a loop that is not the grid-stride loop over the points)
    stays as it is, with a remark that says why.

    Before (bias_add, x[m, n] * s + b[n]):
    ```mlir
    scf.for %f = %tid_global to %points step %grid_size {
      %c:2 = affine.delinearize_index %f into (%m, %n) : index, index
      %x = memref.load %X[%c#0, %c#1] : memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
      %b = memref.load %B[%c#1] : memref<?xf32, strided<[1], offset: ?>, 1>
      %0 = arith.mulf %x, %s : f32
      %1 = arith.addf %0, %b : f32
      memref.store %1, %OUT[%c#0, %c#1] : memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
    } {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 1>}
    ```
    After (the checks and the other versions abridged):
    ```mlir
    %tail = scf.if %one_row_aligned -> (index) {
      scf.for %f = %tid_global to %peel step %grid_size { ... }   // prologue
      scf.for %c = %block_id to %chunks step %grid_dim {
        // atom start %a0 = %peel + %c * %chunk + %tid * 4, row %r, column %j
        %vx = vector.load %X[%r, %j] {alignment = 16 : i64} : memref<...>, vector<4xf32>
        %vb = vector.load %B[%j] {alignment = 16 : i64} : memref<...>, vector<4xf32>
        %x0 = vector.extract %vx[0] : f32 from vector<4xf32>
        ...
        %v = vector.from_elements %r0, %r1, %r2, %r3 : vector<4xf32>
        vector.store %v, %OUT[%r, %j] {alignment = 16 : i64} : memref<...>, vector<4xf32>
      } {ew.layout = #ew.blocked<threads = 128, atom = 4, atoms = 1>}
      scf.yield ...
    } else {
      ... rows aligned: the same vector loop from 0; else the unrolled
      scalar loop {ew.layout = #ew.blocked<threads = 128, atom = 1, atoms = 4>}
    }
    scf.for %f = %tid_global + %tail to %points step %grid_size { ... }  // tail
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"vectorsPerThread", "vectors-per-thread", "unsigned",
           /*default=*/"::mlir::ew::kDefaultVectorsPerThread",
           "16-byte vectors of the widest vectorized tensor that one thread "
           "moves per step of the main loop (0: chosen from each loop's "
           "element code, VectorizeGPULoops.h says how and why)">,
  ];
}

def EwGPUMulHi : Pass<"ew-gpu-mul-hi"> {
  let summary = "Split i32 arith.mului_extended on the GPU into mul.lo and "
                "mul.hi";
  let description = [{
    Replaces each `arith.mului_extended` of two `i32` scalars with an
    `arith.muli` (the low half) and a call of `llvm.nvvm.mulhi.ui` (the high
    half): PTX's `mul.lo.s32` and `mul.hi.u32`, one instruction each.

    Why: arith-to-llvm lowers `mului_extended` as a 64-bit product of the
    zero-extended operands, shifted and truncated, and LLVM's instcombine
    then carries the xors of Philox's rounds (`EwToArith/Random.cpp`) in 64
    bits too: a dropout kernel's PTX had 92 `mul.wide.u32`, 190 `xor.b64`
    and 147 `shr.u64`, and ran at 0.79x Triton's tutorial kernel, which calls
    `umulhi` (H200, 2026-12-05, bench/rng.py). Vectors are left as they are
    (the GPU's element code is scalar after ew-vectorize-gpu-loops).

    ```mlir
    %lo, %hi = arith.mului_extended %a, %b : i32
    // becomes
    %lo = arith.muli %a, %b : i32
    %hi = llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%a, %b) : (i32, i32) -> i32
    ```

    The GPU pipeline runs it on each gpu.module before convert-gpu-to-nvvm.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertEwToLoops : Pass<"convert-ew-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower ew kernels to CPU functions with a loop nest";
  let description = [{
    Turns every `ew.kernel` into a `func.func` with the same ABI as the GPU
    kernels (strided memrefs in the host address space, scalars by value;
    docs/abi.md) whose body is one `scf.for` per dimension of the iteration
    space, outermost first, each tensor loaded and stored at its own
    indices. LLVM's loop vectorizer then widens the innermost loop where
    the innermost access is contiguous. Conversions between bf16 and f32
    become integer code (shift, and round-to-nearest-even on the bits),
    since LLVM would make them calls of `__truncsfbf2` and friends on hosts
    without AVX512-BF16, which Debian's libgcc does not have.

    A kernel with `ew.streaming_stores` (the runtime's variant for launches
    that write more than the caches keep) runs each row that is contiguous
    in all the results of its nest as: the points up to the first result's
    first 64-byte line, blocks of 1024 points computed into a buffer on the
    stack and copied out with 64-byte non-temporal stores aligned to 64,
    and the rest; then SFENCE before the return (docs/runtime.md,
    "Streaming stores").

    Before: `@bias_scale` as in `convert-ew-to-gpu`. After:
    ```mlir
    func.func @ew$bias_scale(%x: memref<?x?xf32, strided<[?, 1], offset: ?>>,
        %s: f32, %b: memref<?xf32, strided<[1], offset: ?>>,
        %out: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
      scf.for %i = %c0 to %m step %c1 {
        scf.for %j = %c0 to %n step %c1 {
          %0 = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
          %1 = memref.load %b[%j] : memref<?xf32, strided<[1], offset: ?>>
          %2 = arith.mulf %0, %s : f32
          %3 = arith.addf %2, %1 : f32
          memref.store %3, %out[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        }
      }
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
  ];
}

def EwCPUBF16AsI16 : Pass<"ew-cpu-bf16-as-i16", "::mlir::ModuleOp"> {
  let summary = "Load and store bf16 as i16 in LLVM-dialect CPU code";
  let description = [{
    Rewrites every `llvm.load` and `llvm.store` of a `bf16` (or a vector of
    them) to move an `i16` instead: a load's users that cast it to `i16`
    take the load itself, the others a bitcast of it; a store takes the
    `i16` that its value was bitcast from, else a bitcast of its value; a
    function's `bf16` arguments (kernels' scalar parameters) become `i16`
    ones the same way (the JIT's packed wrapper loads them from memory: the
    same bits). After `convert-ew-to-loops`, which turns the
    f32 <-> bf16 conversions into integer code, a kernel then keeps no bf16
    value, so LLVM's loop vectorizer makes no `<N x bfloat>` vector: the x86
    back end without AVX512-BF16 scalarizes a select of those, and
    InstCombine made one of the rounding's NaN select (on i16) when the
    store needed a bfloat, which put LeakyReLU in bf16 at 12-21% of a memcpy
    (docs/performance.md). Attributes of the accesses are kept.

    Before (the end of an f32 -> bf16 rounding):
    ```mlir
    %r = llvm.select %nan, %qnan, %rounded : i1, i16
    %b = llvm.bitcast %r : i16 to bf16
    llvm.store %b, %p {alignment = 2 : i64} : bf16, !llvm.ptr
    ```
    After:
    ```mlir
    %r = llvm.select %nan, %qnan, %rounded : i1, i16
    llvm.store %r, %p {alignment = 2 : i64} : i16, !llvm.ptr
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def EwCPUExpandMinMax : Pass<"ew-cpu-expand-minmax", "::mlir::ModuleOp"> {
  let summary = "Expand llvm.intr.minimum and maximum on the CPU into "
                "compares and selects";
  let description = [{
    Replaces each `llvm.intr.minimum` and `llvm.intr.maximum` (a float or a
    vector of them) with what they mean, in compares and selects that LLVM
    vectorizes as it does the intrinsics: a NaN if either operand is one
    (their sum), else the smaller (larger) operand, else, for equal
    operands, the OR (AND) of their bits, which makes min(-0, +0) = -0 and
    max(-0, +0) = +0 and leaves equal values as they are.

    Why: LLVM 22's x86 back end lowers a scalar `minimum(x, y)` whose `x` it
    knows is never NaN with `vfpclassss` testing `y` for a *quiet* NaN only
    (AVX512DQ targets: skylake-avx512, sapphirerapids, znver4), then
    `vminss`, which returns `x` for a signaling `y`: a
    `min(f32(u16 + 8), bitcast(i32, f32))` gave 10 where the result is NaN
    (ewc-fuzz --seed 54, program 9306; `maximum` alike). Quieting the
    operands with `llvm.canonicalize` instead crashed the same back end's
    instruction selection once the vectorizer made a `<2 x float>` of it
    (ewc-fuzz's smoke test).

    ```mlir
    %m = llvm.intr.minimum(%a, %b) : (f32, f32) -> f32
    ```
    becomes
    ```mlir
    %uno = llvm.fcmp "uno" %a, %b : f32
    %nan = llvm.fadd %a, %b : f32
    %lt = llvm.fcmp "olt" %a, %b : f32
    %gt = llvm.fcmp "olt" %b, %a : f32
    %ai = llvm.bitcast %a : f32 to i32
    %bi = llvm.bitcast %b : f32 to i32
    %or = llvm.or %ai, %bi : i32
    %tie = llvm.bitcast %or : i32 to f32
    %0 = llvm.select %gt, %b, %tie : i1, f32
    %1 = llvm.select %lt, %a, %0 : i1, f32
    %m = llvm.select %uno, %nan, %1 : i1, f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def EwCPUMathToLibm : Pass<"ew-cpu-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Call libm for the math functions that convert-math-to-llvm "
                "would approximate";
  let description = [{
    `convert-math-to-llvm` lowers `math.expm1` to `exp(x) - 1` and (by
    default) `math.log1p` to `log(1 + x)`, which lose every digit for small
    |x|: expm1(1e-10) gives 0 or 1.19e-7 in f32 where the answer is 1e-10,
    and log1p(1e-10) gives 0. Run before it, this pass converts those two
    ops, and only those, with MLIR's own math-to-libm patterns: a call of
    libm's `expm1f`/`expm1`/`log1pf`/`log1p` (a vector element by element),
    which glibc gives within 1 ulp. Every other math op is left for
    `convert-math-to-llvm` (intrinsics, which stay vector instructions for
    floor, fabs, ...) and then `convert-math-to-libm`.

    ```mlir
    %r = math.expm1 %x : f32
    ```
    becomes
    ```mlir
    %r = call @expm1f(%x) : (f32) -> f32
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EwExpandFloat8 : Pass<"ew-expand-float8"> {
  let summary = "Lower the conversions of f8E4M3FN and f8E5M2 values";
  let description = [{
    LLVM has no 8-bit float: the LLVM type converter stores `f8E4M3FN`
    (torch's float8_e4m3fn) and `f8E5M2` (float8_e5m2) as `i8`, and moves,
    selects and constants of them need nothing more, but `arith.extf` from
    them and `arith.truncf` to them (from `f32`, the type they compute in)
    have no lowering. This pass rewrites those, with torch's semantics:

    - into f32: exact; NaN becomes the quiet NaN with the input's sign,
      `f8E5M2`'s infinities stay infinities.
    - from f32: round to nearest even; `f8E4M3FN`, which has no infinity,
      gives NaN (0x7F with the sign) above 464 in magnitude (what rounds
      past 448, its largest value) and for infinities and NaN; `f8E5M2`
      gives infinity from 61440 up and NaN (0x7F with the sign) for NaN.
      These are torch's `c10::detail::fp8e4m3fn_from_fp32_value` and
      `fp8e5m2_from_fp32_value`, which the integer code follows step by
      step.

    With `hardware` (sm_89 and later, where PTX has `cvt` to and from the
    `e4m3x2` and `e5m2x2` pairs) the conversions are NVVM's
    `nvvm.convert.f32x2.to.f8x2` (`satfinite`, the only form PTX has, with
    selects for the values that torch does not saturate) and
    `nvvm.convert.f8x2.to.f16x2`; otherwise, and on the CPU, integer code.
    f16 and bf16 sources (arith's canonicalization folds the lowering's
    extf to f32 into the truncf) are extended to f32 first, and f16, bf16
    and f64 results come from f32, all exactly; f64 -> f8 is an error: it
    would round twice, and the ew lowering rounds f64 to odd in f32 first.

    Before:
    ```mlir
    %y = arith.truncf %x : f32 to f8E4M3FN
    ```
    After (integer code, abridged):
    ```mlir
    %bits = arith.bitcast %x : f32 to i32
    ...
    %b = arith.trunci %r : i32 to i8
    %y = arith.bitcast %b : i8 to f8E4M3FN
    ```
  }];
  let options = [
    Option<"hardware", "hardware", "bool", /*default=*/"false",
           "Use the NVVM conversions of sm_89 and later instead of integer "
           "code">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GPUModuleToPTX : Pass<"gpu-module-to-ptx", "::mlir::ModuleOp"> {
  let summary = "Serialize gpu.modules to PTX, linking ewc's libdevice";
  let description = [{
    Replaces every `gpu.module` that has an `#nvvm.target` by a `gpu.binary`
    holding PTX text, as `gpu-module-to-binary{format=isa}` does. Where the
    module calls libdevice functions (`__nv_expf` and the others that
    `convert-gpu-to-nvvm` emits for math ops), it links the libdevice bitcode
    that was embedded into ewc at build time, from memory: no CUDA toolkit is
    needed, and `CUDA_HOME`, `CUDA_PATH` or `CUDA_ROOT` cannot make it fail.
    A kernel that needs libdevice in an ewc built without it is an error.

    Before:
    ```mlir
    gpu.module @ewc_kernels [#nvvm.target<chip = "sm_90">] {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @k(...) attributes {gpu.kernel, nvvm.kernel} {
        %e = llvm.call @__nv_expf(%x) : (f32) -> f32
        ...
      }
    }
    ```
    After:
    ```mlir
    gpu.binary @ewc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">,
        properties = {O = 3 : i32}, assembly = ".version 7.8 ..."]
    ```
    with the body of `__nv_expf` inlined into the kernel's PTX.

    The LLVM passes before NVPTX code generation are `llvm-passes`, in opt's
    `-passes` syntax. The default is ewc's short pipeline for its kernels
    (`kKernelLLVMPasses`), which gives the PTX that LLVM's `default<O2>`
    gives them in a fraction of the time; an empty value runs LLVM's
    `default<On>` with the target's `O`, as upstream's serializer does.
  }];
  let options = [
    Option<"llvmPasses", "llvm-passes", "std::string",
           /*default=*/"::mlir::ew::kKernelLLVMPasses.str()",
           "LLVM IR passes before NVPTX, in opt's -passes syntax (empty: "
           "LLVM's default<On> pipeline for the target's O)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PtxasWorkarounds : Pass<"ptxas-workarounds", "::mlir::ModuleOp"> {
  let summary = "Rewrite the PTX that CUDA 13.0's ptxas miscompiles";
  let description = [{
    Rewrites the PTX text of every `gpu.binary` object for an NVVM target
    (assembly format, as `gpu-module-to-ptx` leaves it) so that CUDA 13.0's
    ptxas assembles it right. At every optimization level above -O0 that
    ptxas takes `abs.s64` as never negative, folds a compare of `abs.f32`
    as if the value could not be NaN, puts +0.0 where `selp.f32` picks a
    -0.0, combines chains of integer `min`/`max` into wrong values and
    takes `neg.s16` of -32768 as +32768
    (docs/ptxas-bug/README.md has a reproducer; ewc-fuzz found them on the
    H200). Each rewrite computes exactly what the PTX ISA defines for the
    instruction it replaces:

    - `int-abs`: `abs.sN d, a` becomes `(a ^ (a >> N-1)) - (a >> N-1)`.
    - `float-abs`: `abs.f32 d, a` becomes `and.b32 d, a, 0x7FFFFFFF` (and
      the same for f16, bf16 and f64).
    - `float-select`: `selp.f32`/`selp.f64` become `selp.b32`/`selp.b64`,
      with float immediates written as their bits.
    - `int-minmax`: `min`/`max` of a signed or unsigned integer become a
      `setp.lt`/`setp.gt` and a `selp`.
    - `int-neg`: `neg.s16 d, a` becomes `not.b16 d, a` and
      `add.s16 d, d, 1` (ptxas left -(-32768) as +32768 for every reader).
    - `wide-store`: `st.*.b32 [a], %rdN` (a 64-bit register, truncated)
      becomes `mov.b64 {lo, hi}, %rdN` and `st.*.b32 [a], lo` (an f64
      stored as two halves had another value in its low word).
    - `narrow-store`: `st.*.b8 [a], %rsN` (a 16-bit register) becomes
      `cvt.u32.u16 w, %rsN` and `st.*.b8 [a], w`, and `st.*.b8` or
      `st.*.b16 [a], %rN` (a 32-bit register) becomes `and.b32 w, %rN,
      255` (65535) and the store of `w` (a byte of a `cvt.rn.bf16.f32`
      result, and two bytes of a `cvt.rn.f32.s64` one, were stored as the
      float converted to an integer).

    The new instructions cost a few ALU operations per element where the
    kernels wait on memory; docs/performance.md has the measurement.

    Before (in the `gpu.binary`'s PTX):
    ```
    abs.s64   %rd4, %rd3;
    selp.f32  %r2, 0fBF800000, 0f80000000, %p1;
    ```
    After:
    ```
    {
    .reg .b64 %ewc_sign;
    shr.s64   %ewc_sign, %rd3, 63;
    xor.b64   %rd4, %rd3, %ewc_sign;
    sub.s64   %rd4, %rd4, %ewc_sign;
    }
    selp.b32  %r2, 0xBF800000, 0x80000000, %p1;
    ```
  }];
  let options = [
    Option<"workarounds", "workarounds", "std::string", /*default=*/"\"all\"",
           "Which rewrites: all, none, or a comma-separated list of int-abs, "
           "float-abs, float-select, int-minmax, int-neg, wide-store and "
           "narrow-store">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // EWC_CONVERSION_PASSES_TD
