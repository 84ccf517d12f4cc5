//===- Passes.td - ew conversion passes --------------------*- tablegen -*-===//
//
// The lowerings out of the ew dialect: to a GPU kernel (convert-ew-to-gpu)
// and to a CPU loop (convert-ew-to-loops). Both give a kernel the same plain
// ABI (docs/abi.md): k(inputs..., outputs..., i64 n), tensors as pointers.
// And the last GPU step, gpu.module to PTX with the libdevice built into ewc
// (gpu-module-to-ptx).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_CONVERSION_PASSES_TD
#define EWC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertEwToGPU : Pass<"convert-ew-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower ew kernels to GPU kernels with a plain pointer ABI";
  let description = [{
    Turns every `ew.kernel` into a `gpu.func ... kernel` inside one
    `gpu.module`. The kernel takes each tensor as a `!llvm.ptr<1>` (a device
    pointer in the global address space), each scalar by value, then one
    pointer per result, then the element count n as i64. Its body is a
    grid-stride loop, so any launch grid covers all n elements (n = 0 and n
    not a multiple of the block size included); each iteration loads the
    inputs at index i, computes the kernel body on scalars (arith), and stores
    the results at i. Indices are 64-bit: n may exceed 2^31.

    With `vectorize` (the default), that loop then becomes three: a scalar
    prologue up to the first element where every tensor is 16-byte aligned,
    a main loop over whole chunks in which each thread moves E elements of
    every tensor with 16-byte vector loads and stores and no masks, and the
    scalar loop again for the tail (lib/Conversion/EwToGPU/
    VectorizeElementLoop.h). E is recorded on the kernel as
    `ew.elements_per_thread`, which the runtime's launch shape reads.

    Before (the scalar form, as `vectorize=false` leaves it):

    ```mlir
    ew.kernel @scale(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
      %0 = ew.mul %s, %x : f32, tensor<?xf32>
      ew.return %0 : tensor<?xf32>
    }
    ```
    After:
    ```mlir
    module attributes {gpu.container_module} {
      gpu.module @ewc_kernels {
        gpu.func @scale(%x: !llvm.ptr<1>, %s: f32, %out: !llvm.ptr<1>,
                        %n: i64) kernel {
          // %start = block_id * block_dim + thread_id,
          // %step = grid_dim * block_dim (as i64)
          scf.for %i = %start to %n step %step : i64 {
            %p = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %v = llvm.load %p : !llvm.ptr<1> -> f32
            %0 = arith.mulf %s, %v : f32
            %q = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %0, %q : f32, !llvm.ptr<1>
          }
          gpu.return
        }
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
    "::mlir::ub::UBDialect",
  ];
  let options = [
    Option<"gpuModuleName", "gpu-module-name", "std::string",
           /*default=*/"\"ewc_kernels\"",
           "Name of the gpu.module that receives the kernels">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Move each thread's elements with 16-byte vector loads and stores "
           "(false: the scalar grid-stride loop)">,
    Option<"vectorsPerThread", "vectors-per-thread", "unsigned",
           /*default=*/"::mlir::ew::kDefaultVectorsPerThread",
           "16-byte vectors of the widest element type that one thread moves "
           "per main-loop iteration (0: chosen from each kernel's element "
           "code, VectorizeElementLoop.h says how and why)">,
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
    - otherwise a coalesced unrolled scalar loop (`atom = 1, atoms = E`),
      as torch falls back to, not one point per thread and step;

    and the original loop runs the tail after the whole chunks. The points
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

def ConvertEwToLoops : Pass<"convert-ew-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower ew kernels to CPU functions with a loop over n";
  let description = [{
    Turns every `ew.kernel` into a `func.func` with the same plain ABI as the
    GPU kernels (tensors as `!llvm.ptr`, scalars by value, result pointers,
    then i64 n) whose body is `scf.for %i = 0 to %n step 1` over the
    elements. LLVM's loop vectorizer then widens that loop on the CPU.
    Conversions between bf16 and f32 become integer code (shift, and
    round-to-nearest-even on the bits), since LLVM would make them calls of
    `__truncsfbf2` and friends on hosts without AVX512-BF16, which Debian's
    libgcc does not have.

    Before:
    ```mlir
    ew.kernel @scale(%x: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
      %0 = ew.mul %s, %x : f32, tensor<?xf32>
      ew.return %0 : tensor<?xf32>
    }
    ```
    After:
    ```mlir
    func.func @scale(%x: !llvm.ptr, %s: f32, %out: !llvm.ptr, %n: i64) {
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      scf.for %i = %c0 to %n step %c1 : i64 {
        %p = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %p : !llvm.ptr -> f32
        %0 = arith.mulf %s, %v : f32
        %q = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %0, %q : f32, !llvm.ptr
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
    -0.0, and combines chains of integer `min`/`max` into wrong values
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
           "float-abs, float-select and int-minmax">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // EWC_CONVERSION_PASSES_TD
