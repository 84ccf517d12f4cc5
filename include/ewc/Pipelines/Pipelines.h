//===- Pipelines.h - The named ewc pipelines --------------------*- C++ -*-===//
//
// The pipelines from ew to PTX and from ew to the LLVM dialect for the CPU.
// ewc-run runs exactly these builders, and ewc-opt registers them under the
// same names, so a lit test of `ewc-opt --ew-to-ptx` tests what ewc-run runs.
//
// ew-to-ptx is three stages, each a pipeline of its own so that every stage
// can be shown on its own (`ewc-run --emit gpu|llvm|ptx`, or ewc-opt):
//
//   ew-to-gpu       ew cleanup, then convert-ew-to-gpu (gpu.func kernels)
//   ew-gpu-to-nvvm  attach #nvvm.target, lower the gpu.module to NVVM/LLVM
//   ew-nvvm-to-ptx  gpu-module-to-ptx: a gpu.binary holding PTX text, with
//                   the libdevice embedded in ewc linked in; then
//                   ptxas-workarounds, which rewrites the PTX that CUDA
//                   13.0's ptxas miscompiles
//
// ew-to-cpu is two, so that a test pass can act between them as it can
// between the GPU stages:
//
//   ew-to-loops       ew cleanup, then convert-ew-to-loops (element loops)
//   ew-loops-to-llvm  scf, arith, cf and func to the LLVM dialect
//
//===----------------------------------------------------------------------===//

#ifndef EWC_PIPELINES_PIPELINES_H
#define EWC_PIPELINES_PIPELINES_H

#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include "llvm/Support/Error.h"

namespace mlir {
class DialectRegistry;

namespace ew {

/// The GPU architectures ewc compiles for: those that both LLVM's NVPTX back
/// end and the CUDA 13 toolkit's ptxas (and so the driver's JIT of its
/// generation) take, sm_75 and later; LLVM's older ones (sm_20 ... sm_72) and
/// sm_101 (which CUDA 13.0 renamed sm_110) are not among them.
llvm::ArrayRef<llvm::StringRef> getSupportedChips();

/// An error naming the supported chips unless `chip` is one of them.
llvm::Error checkChip(llvm::StringRef chip);

/// The `chip` option's parser: an unsupported chip is an error of the option
/// itself ("for the --chip option: ..."), as for upstream passes' options.
struct ChipParser : public llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, std::string &value);
};

/// Options of the GPU pipelines.
struct EwToPTXOptions : public PassPipelineOptions<EwToPTXOptions> {
  PassOptions::Option<std::string, ChipParser> chip{
      *this, "chip", llvm::cl::desc("NVIDIA GPU architecture (sm_XX)"),
      llvm::cl::init("sm_90")};
  // Empty: the oldest PTX ISA that the chip supports (7.8 for sm_90, 8.6 for
  // sm_100), which NVPTX picks itself; the oldest ISA runs on the most
  // drivers. A fixed "+ptx80" would be fatal in NVPTX for sm_100 and up.
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX target features, e.g. +ptx86 for PTX ISA 8.6 "
                     "(default: the chip's minimum PTX ISA)"),
      llvm::cl::init("")};
  // 2, not 3: O3's extra IR passes change nothing in ewc's kernels (the PTX
  // of all 21 kernels in kernels/ and of 150 random programs is byte for byte
  // the same at O2 and O3, 2026-11-30). They cost 7 of leaky_relu's 23 ms to
  // PTX on the development machine, but no measurable time on the H200's host
  // (docs/performance.md, "Compile time").
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level (0-3): NVPTX code generation's, "
                     "and the IR pipeline's where llvm-passes is empty"),
      llvm::cl::init(2)};
  // ewc's short pipeline (kKernelLLVMPasses): the PTX of default<O2> for
  // ewc's kernels in a fraction of the time (docs/performance.md).
  PassOptions::Option<std::string> llvmPasses{
      *this, "llvm-passes",
      llvm::cl::desc("LLVM IR passes before NVPTX, in opt's -passes syntax "
                     "(empty: LLVM's default<On> for opt-level)"),
      llvm::cl::init(kKernelLLVMPasses.str())};
  // "all" unless a test or a diagnosis asks otherwise: CUDA 13.0's ptxas
  // miscompiles what these rewrite (ptxas-workarounds, PtxasWorkarounds.h).
  PassOptions::Option<std::string> ptxasWorkarounds{
      *this, "ptxas-workarounds",
      llvm::cl::desc(
          "PTX rewrites for ptxas bugs: all, none, or a list of "
          "int-abs, float-abs, float-select, int-minmax, int-neg, wide-store"),
      llvm::cl::init("all")};
  // The sm_89+ cvt with the selects that make it torch's by default: both
  // it and the integer code equal torch's casts on all 2^32 f32 patterns,
  // every f16 and bf16 pattern and every 8-bit one back, on an H100 (sm_90,
  // 2026-12-05; bench/probes/float8-torch.py, docs/gpu-runs.md). Chips
  // before sm_89 get the integer code either way.
  PassOptions::Option<std::string> float8Conversions{
      *this, "float8-conversions",
      llvm::cl::desc("How 8-bit floats convert on the GPU: integer (torch's "
                     "integer code) or hardware (the cvt of sm_89 and later, "
                     "integer code on older chips)"),
      llvm::cl::init("hardware")};
};

/// True if `chip` (sm_XX, with or without a suffix such as "a") has PTX's
/// conversions to and from the 8-bit floats: sm_89 and later.
bool chipHasFloat8Conversions(llvm::StringRef chip);

/// Checks that the NVPTX back end knows `options`' chip and features: NVPTX
/// itself only warns about an unknown one and goes on to emit PTX for a
/// default target, so every GPU pipeline checks first. (A known PTX ISA too
/// old for the chip is a fatal error inside NVPTX, which ewc-run reports.)
llvm::Error checkEwToPTXOptions(const EwToPTXOptions &options);

/// ew-level cleanup (canonicalize, cse) shared by the GPU and CPU paths.
void buildEwCleanupPipeline(OpPassManager &pm);

/// Stage 1 of ew-to-ptx: ew kernels to gpu.func kernels.
void buildEwToGPUPipeline(OpPassManager &pm);

/// Stage 2 of ew-to-ptx: the gpu.module to the NVVM and LLVM dialects.
void buildGPUToNVVMPipeline(OpPassManager &pm, const EwToPTXOptions &options);

/// Stage 3 of ew-to-ptx: the gpu.module to a gpu.binary holding PTX.
void buildNVVMToPTXPipeline(OpPassManager &pm, const EwToPTXOptions &options);

/// ew-to-ptx: the three stages in order.
void buildEwToPTXPipeline(OpPassManager &pm, const EwToPTXOptions &options);

/// Stage 1 of ew-to-cpu: ew kernels to func.func element loops.
void buildEwToLoopsPipeline(OpPassManager &pm);

/// Stage 2 of ew-to-cpu: the element loops to LLVM-dialect functions.
void buildLoopsToLLVMPipeline(OpPassManager &pm);

/// ew-to-cpu: the two stages in order, for the CPU JIT.
void buildEwToCPUPipeline(OpPassManager &pm);

/// The PTX text that ew-to-ptx left in the module's gpu.binary, or an empty
/// string if there is none (the module held no kernels).
std::string getPTX(ModuleOp module);

/// Registers the named pipelines with the global pass registry.
void registerEwPipelines();

/// Registers in `registry` everything a context needs to run the pipelines
/// and read or print what they produce: the ew dialect and the dialects of
/// every stage's output, the conversion interfaces that convert-gpu-to-nvvm
/// lowers through, the LLVM IR translations and the NVVM target that
/// gpu-module-to-binary serializes with. Both tools use exactly this set.
void registerEwCompilerDialects(DialectRegistry &registry);

} // namespace ew
} // namespace mlir

#endif // EWC_PIPELINES_PIPELINES_H
