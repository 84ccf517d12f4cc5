//===- KernelRunner.cpp - Run a compiled kernel and check it --------------===//
//
// The launch passes one value per parameter and one pointer per result,
// which the driver puts in the ABI's order: the host arrays themselves on
// the CPU, device copies of them on the GPU.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/KernelRunner.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Frontend/AST.h"
#include "ewc/Runtime/DeviceBuffer.h"

#include "mlir/Support/Timing.h"

#include "llvm/Support/Format.h"

using namespace ewc;
using namespace ewc::check;

namespace {

/// Nests stage `name` under `parent` (untimed without one) and makes it the
/// current stage, ending the previous.
void startStage(mlir::TimingScope &stage, mlir::TimingScope *parent,
                llvm::StringRef name) {
  stage = parent ? parent->nest(name) : mlir::TimingScope();
}

} // namespace

llvm::Expected<KernelRun> check::runKernel(const Kernel &kernel,
                                           driver::LoadedModule &module,
                                           const InputSpec &spec,
                                           const LaunchConfig &launch,
                                           mlir::TimingScope *timing) {
  const KernelSignature *signature = module.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  int64_t n = spec.n;
  if (llvm::Error error = checkHostMemory(kernel, n))
    return std::move(error);
  mlir::TimingScope stage;
  startStage(stage, timing, "inputs");
  KernelRun run;
  llvm::Expected<std::vector<HostArray>> inputs = makeInputs(kernel, spec);
  if (!inputs)
    return inputs.takeError();
  run.inputs = std::move(*inputs);
  llvm::Expected<LaunchValues> values =
      getLaunchValues(kernel, *signature, run.inputs, spec.args);
  if (!values)
    return values.takeError();
  // Poisoned, so that an element the kernel does not write shows.
  for (DType dtype : signature->results) {
    run.outputs.emplace_back(dtype, n);
    run.outputs.back().fillPoison();
  }

  CudaContext *cuda = module.getCudaContext();
  if (cuda)
    startStage(stage, timing, "copy to device");
  std::vector<const void *> params;
  std::vector<void *> outputPointers;
  std::vector<DeviceBuffer> buffers;
  auto addArray = [&](const HostArray &array) -> llvm::Expected<void *> {
    if (!cuda)
      // The kernel only reads inputs; the ABI's pointers are not const.
      return const_cast<void *>(array.data());
    size_t offset = launch.offset * getDTypeSize(array.getDType());
    auto buffer =
        DeviceBuffer::allocate(*cuda, offset + array.getSizeInBytes());
    if (!buffer)
      return buffer.takeError();
    // Outputs start as the poison their host arrays hold.
    if (llvm::Error e =
            buffer->copyFromHost(array.data(), array.getSizeInBytes(), offset))
      return std::move(e);
    void *address = reinterpret_cast<void *>(buffer->getAddress() + offset);
    buffers.push_back(std::move(*buffer));
    return address;
  };
  for (auto [param, value] : llvm::zip(signature->params, values->params)) {
    if (!param.isTensor) {
      // A scalar's value is its one-element array's bytes.
      params.push_back(value->data());
      continue;
    }
    llvm::Expected<void *> pointer = addArray(*value);
    if (!pointer)
      return pointer.takeError();
    params.push_back(*pointer);
  }
  for (const HostArray &output : run.outputs) {
    llvm::Expected<void *> pointer = addArray(output);
    if (!pointer)
      return pointer.takeError();
    outputPointers.push_back(*pointer);
  }

  startStage(stage, timing, "launch");
  driver::LaunchOptions launchOptions;
  launchOptions.synchronize = true;
  launchOptions.gridWaves = launch.gridWaves;
  launchOptions.blockSize = launch.blockSize;
  if (llvm::Error e =
          module.launch(*signature, params, outputPointers, n, launchOptions))
    return std::move(e);
  if (cuda) {
    startStage(stage, timing, "copy to host");
    size_t firstOutput = buffers.size() - run.outputs.size();
    for (auto [index, output] : llvm::enumerate(run.outputs))
      if (llvm::Error e = buffers[firstOutput + index].copyToHost(
              output.data(), output.getSizeInBytes(),
              launch.offset * getDTypeSize(output.getDType())))
        return std::move(e);
  }
  return std::move(run);
}

llvm::Expected<std::vector<CompareResult>>
check::checkRun(const Kernel &kernel, const KernelRun &run, int64_t n,
                const CheckOptions &options, mlir::TimingScope *timing) {
  mlir::TimingScope stage;
  startStage(stage, timing, "reference and compare");
  return checkKernel(kernel, run.inputs, run.outputs, n, options);
}

llvm::Expected<KernelCheck>
check::runAndCheck(const Kernel &kernel, driver::LoadedModule &module,
                   const InputSpec &spec, const CheckOptions &options,
                   const LaunchConfig &launch, mlir::TimingScope *timing) {
  llvm::Expected<KernelRun> run =
      runKernel(kernel, module, spec, launch, timing);
  if (!run)
    return run.takeError();
  KernelCheck result;
  result.run = std::move(*run);
  llvm::Expected<std::vector<CompareResult>> results =
      checkRun(kernel, result.run, spec.n, options, timing);
  if (!results)
    return results.takeError();
  result.results = std::move(*results);
  return std::move(result);
}

void check::printMismatches(llvm::raw_ostream &os, const CompareResult &result,
                            const Kernel &kernel,
                            llvm::ArrayRef<HostArray> inputs, unsigned count,
                            llvm::StringRef indent) {
  for (const Mismatch &mismatch : llvm::ArrayRef(result.worst).take_front(count)) {
    os << indent << "[" << mismatch.index << "]";
    for (const auto &param : kernel.getParams()) {
      const HostArray &input = inputs[param->getIndex()];
      int64_t i = param->isTensor() ? mismatch.index : 0;
      os << " " << param->getName() << "=";
      if (isFloat(input.getDType()))
        os << llvm::format("%.9g", input.getAsDouble(i));
      else if (input.getDType() == DType::Bool)
        os << (input.getAsInt(i) ? "true" : "false");
      else
        os << input.getAsInt(i);
    }
    os << ": got " << mismatch.got << ", expected " << mismatch.expected
       << "\n";
  }
}
