//===- KernelRunner.cpp - Run a compiled kernel and check it --------------===//
//
// The launch passes one argument per parameter and one tensor per result,
// which the driver plans and puts in the ABI's order: views of the host
// storage itself on the CPU, of device copies of it on the GPU.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/KernelRunner.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Frontend/AST.h"
#include "ewc/Runtime/DeviceBuffer.h"

#include "mlir/Support/Timing.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

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

llvm::Expected<KernelRun>
check::runKernel(const KernelDecl &kernel, driver::LoadedModule &module,
                 const InputSpec &spec, const LaunchConfig &launch,
                 mlir::TimingScope *timing, bool secondPoison) {
  const KernelSignature *signature = module.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  mlir::TimingScope stage;
  startStage(stage, timing, "inputs");
  KernelRun run;
  llvm::Expected<DimBindings> bindings = bindRunDims(kernel, spec);
  if (!bindings)
    return bindings.takeError();
  run.bindings = std::move(*bindings);
  if (llvm::Error error = checkHostMemory(kernel, spec, run.bindings))
    return std::move(error);
  llvm::Expected<std::vector<StridedArray>> inputs =
      makeInputs(kernel, spec, run.bindings);
  if (!inputs)
    return inputs.takeError();
  run.inputs = std::move(*inputs);
  llvm::Expected<LaunchValues> values =
      getLaunchValues(kernel, *signature, run.inputs, spec.args);
  if (!values)
    return values.takeError();
  // Poisoned, so that an element the kernel does not write shows, and one
  // it writes outside the view too.
  startStage(stage, timing, "outputs (poisoned)");
  unsigned numTensorParams =
      signature->getNumTensors() - signature->results.size();
  for (auto [index, result] : llvm::enumerate(signature->results))
    run.outputs.push_back(makePoisonedTensor(
        result.dtype, getResultShape(*signature, run.bindings, index),
        getLayoutOf(spec, numTensorParams + index),
        getOffsetOf(spec, numTensorParams + index), secondPoison));

  CudaContext *cuda = module.getCudaContext();
  if (cuda)
    startStage(stage, timing, "copy to device");
  // Every tensor's view of its storage: the host's on the CPU, a device
  // copy's (allocated aligned, so `offset` misaligns it) on the GPU.
  std::vector<DeviceBuffer> buffers;
  auto makeTensorArg =
      [&](const StridedArray &array) -> llvm::Expected<TensorArg> {
    TensorArg tensor;
    tensor.shape = array.shape;
    tensor.strides = array.strides;
    size_t elementSize = getDTypeSize(array.storage.getDType());
    if (!cuda) {
      // The kernel only reads inputs; the ABI's pointers are not const.
      tensor.data = const_cast<uint8_t *>(
          static_cast<const uint8_t *>(array.storage.data()) +
          array.offset * elementSize);
      return tensor;
    }
    auto buffer = DeviceBuffer::allocate(
        *cuda, std::max<size_t>(array.storage.getSizeInBytes(), 1));
    if (!buffer)
      return buffer.takeError();
    if (llvm::Error e = buffer->copyFromHost(array.storage.data(),
                                             array.storage.getSizeInBytes()))
      return std::move(e);
    tensor.data = reinterpret_cast<void *>(buffer->getAddress() +
                                           array.offset * elementSize);
    buffers.push_back(std::move(*buffer));
    return tensor;
  };
  std::vector<TensorArg> paramTensors(signature->params.size());
  std::vector<driver::LaunchArg> params;
  for (auto [index, param, value] :
       llvm::enumerate(signature->params, values->params)) {
    if (!param.isTensor) {
      // A scalar's value is its one-element array's bytes.
      params.push_back(driver::LaunchArg::ofScalar(value->storage.data()));
      continue;
    }
    llvm::Expected<TensorArg> tensor = makeTensorArg(*value);
    if (!tensor)
      return tensor.takeError();
    paramTensors[index] = std::move(*tensor);
    params.push_back(driver::LaunchArg::ofTensor(paramTensors[index]));
  }
  std::vector<TensorArg> outputs;
  for (const StridedArray &output : run.outputs) {
    llvm::Expected<TensorArg> tensor = makeTensorArg(output);
    if (!tensor)
      return tensor.takeError();
    outputs.push_back(std::move(*tensor));
  }

  startStage(stage, timing, "launch");
  driver::LaunchOptions launchOptions;
  launchOptions.synchronize = true;
  launchOptions.gridWaves = launch.gridWaves;
  launchOptions.blockSize = launch.blockSize;
  launchOptions.rowsBlockSize = launch.rowsBlockSize;
  launchOptions.blocksPerSM = launch.blocksPerSM;
  launchOptions.rowsResident = launch.rowsResident;
  launchOptions.splits = launch.splits;
  launchOptions.threads = launch.threads;
  launchOptions.streamingStoreBytes = launch.streamingStoreBytes;
  launchOptions.notes = launch.notes;
  if (llvm::Error e = module.launch(*signature, params, outputs, launchOptions))
    return std::move(e);
  if (cuda) {
    startStage(stage, timing, "copy to host");
    size_t firstOutput = buffers.size() - run.outputs.size();
    for (auto [index, output] : llvm::enumerate(run.outputs))
      if (llvm::Error e = buffers[firstOutput + index].copyToHost(
              output.storage.data(), output.storage.getSizeInBytes()))
        return std::move(e);
  }
  return std::move(run);
}

StrayWrites check::findStrayWrites(const StridedArray &output) {
  StrayWrites stray;
  int64_t size = output.storage.size();
  if (output.offset == 0 && output.getNumElements() == size)
    return stray; // A contiguous view covers its whole storage.
  std::vector<bool> inView(size, false);
  for (int64_t i = 0, e = output.getNumElements(); i < e; ++i)
    inView[output.getElement(i)] = true;
  for (int64_t element = 0; element < size; ++element) {
    if (inView[element] || output.storage.isPoison(element))
      continue;
    if (stray.count++ == 0)
      stray.first = element;
  }
  return stray;
}

/// The reference's views of `run`'s inputs and outputs.
static std::pair<std::vector<ArrayView>, std::vector<ArrayView>>
getViews(const KernelRun &run) {
  std::pair<std::vector<ArrayView>, std::vector<ArrayView>> views;
  for (const StridedArray &input : run.inputs)
    views.first.push_back(input.getView());
  for (const StridedArray &output : run.outputs)
    views.second.push_back(output.getView());
  return views;
}

llvm::Expected<KernelCheck> check::checkRun(const KernelDecl &kernel,
                                            KernelRun run,
                                            const CheckOptions &options,
                                            mlir::TimingScope *timing) {
  mlir::TimingScope stage;
  startStage(stage, timing, "reference and compare");
  auto [inputs, outputs] = getViews(run);
  llvm::Expected<std::vector<CompareResult>> results =
      checkKernel(kernel, inputs, outputs, options);
  if (!results)
    return results.takeError();
  KernelCheck check;
  check.results = std::move(*results);
  for (const StridedArray &output : run.outputs)
    check.strayWrites.push_back(findStrayWrites(output));
  check.run = std::move(run);
  return std::move(check);
}

/// Whether result `index` of `check` is a float result (not an 8-bit one,
/// whose poison is a value the verdict accepts where it is expected) with
/// an element that still held the poison pattern.
static bool hasPoisonedFloats(const KernelCheck &check, size_t index) {
  DType dtype = check.run.outputs[index].storage.getDType();
  return isFloat(dtype) && !isFloat8(dtype) &&
         check.results[index].numUnwritten > 0;
}

llvm::Error
check::recheckPoisoned(const KernelDecl &kernel, driver::LoadedModule &module,
                       const InputSpec &spec, const CheckOptions &options,
                       const LaunchConfig &launch, KernelCheck &check) {
  bool any = false;
  for (size_t r = 0; r < check.results.size(); ++r)
    any |= hasPoisonedFloats(check, r);
  if (!any)
    return llvm::Error::success();
  // The same inputs (makeInputs is a function of the spec), the second
  // poison in the outputs; the launch's notes were printed once.
  LaunchConfig again = launch;
  again.notes = nullptr;
  llvm::Expected<KernelRun> second =
      runKernel(kernel, module, spec, again, nullptr, /*secondPoison=*/true);
  if (!second)
    return second.takeError();
  // The first run's outputs again, each element that held the poison
  // judged by the second run's: written (its bits are its value) or not.
  auto [inputs, outputs] = getViews(check.run);
  for (auto [view, other] : llvm::zip(outputs, second->outputs))
    view.secondRun = &other.storage;
  llvm::Expected<std::vector<CompareResult>> results =
      checkKernel(kernel, inputs, outputs, options);
  if (!results)
    return results.takeError();
  for (size_t r = 0; r < check.results.size(); ++r)
    if (hasPoisonedFloats(check, r))
      check.results[r] = std::move((*results)[r]);
  return llvm::Error::success();
}

llvm::Expected<KernelCheck>
check::runAndCheck(const KernelDecl &kernel, driver::LoadedModule &module,
                   const InputSpec &spec, const CheckOptions &options,
                   const LaunchConfig &launch, mlir::TimingScope *timing) {
  llvm::Expected<KernelRun> run =
      runKernel(kernel, module, spec, launch, timing);
  if (!run)
    return run.takeError();
  llvm::Expected<KernelCheck> check =
      checkRun(kernel, std::move(*run), options, timing);
  if (!check)
    return check.takeError();
  if (llvm::Error error =
          recheckPoisoned(kernel, module, spec, options, launch, *check))
    return std::move(error);
  return check;
}

/// The dimensions of `dims` (a signature's), the batch expanded into
/// "...0", "...1", ... for `batchRank` dimensions.
static std::vector<std::string>
expandBatch(const std::vector<std::string> &dims, size_t batchRank) {
  std::vector<std::string> expanded;
  for (const std::string &dim : dims) {
    if (dim != kBatchDim) {
      expanded.push_back(dim);
      continue;
    }
    for (size_t i = 0; i < batchRank; ++i)
      expanded.push_back(kBatchDim.str() + std::to_string(i));
  }
  return expanded;
}

void check::printMismatches(llvm::raw_ostream &os, const KernelCheck &check,
                            unsigned result, const KernelDecl &kernel,
                            unsigned count, llvm::StringRef indent) {
  printElements(os, check, result, kernel,
                llvm::ArrayRef(check.results[result].worst).take_front(count),
                indent);
}

void check::printElements(llvm::raw_ostream &os, const KernelCheck &check,
                          unsigned result, const KernelDecl &kernel,
                          llvm::ArrayRef<Mismatch> elements,
                          llvm::StringRef indent) {
  KernelSignature signature = getKernelSignature(kernel);
  size_t batchRank = check.run.bindings.batchShape.size();
  std::vector<std::string> resultDims =
      expandBatch(signature.results[result].dims, batchRank);
  const StridedArray &output = check.run.outputs[result];
  const CompareResult &compared = check.results[result];
  for (const Mismatch &mismatch : elements) {
    // The point's coordinates by dimension name.
    llvm::StringMap<int64_t> coords;
    for (int64_t index = mismatch.index, d = resultDims.size(); d-- > 0;) {
      coords[resultDims[d]] = index % output.shape[d];
      index /= output.shape[d];
    }
    os << indent << compared.formatIndex(mismatch.index);
    for (auto [param, input] : llvm::zip(signature.params, check.run.inputs)) {
      int64_t element = input.offset;
      bool atPoint = true;
      if (param.isTensor) {
        std::vector<std::string> dims = expandBatch(param.dims, batchRank);
        for (auto [dim, stride] : llvm::zip(dims, input.strides)) {
          auto it = coords.find(dim);
          atPoint &= it != coords.end();
          if (it != coords.end())
            element += it->getValue() * stride;
        }
      }
      // A parameter with a dimension the result lacks (it feeds another
      // result) has no one element here.
      if (!atPoint)
        continue;
      const HostArray &storage = input.storage;
      os << " " << param.name << "=";
      if (isFloat(storage.getDType()))
        os << llvm::format("%.9g", storage.getAsDouble(element));
      else if (storage.getDType() == DType::Bool)
        os << (storage.getAsInt(element) ? "true" : "false");
      else
        os << storage.getAsInt(element);
    }
    os << ": got " << mismatch.got << ", expected " << mismatch.expected
       << "\n";
  }
}
