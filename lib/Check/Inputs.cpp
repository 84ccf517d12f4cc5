//===- Inputs.cpp - The values a checked kernel runs with -----------------===//
//
// The messages name the command-line flags (--arg, --input, --dim, --batch)
// that the values come from in ewc-run, their main user.
//
//===----------------------------------------------------------------------===//

#include "ewc/Check/Inputs.h"

#include "ewc/Frontend/AST.h"
#include "ewc/Reference/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <unistd.h>

using namespace ewc;
using namespace ewc::check;

llvm::Expected<HostArray> check::parseScalar(DType dtype, llvm::StringRef text,
                                             llvm::StringRef name) {
  auto bad = [&](llvm::StringRef expected) {
    return llvm::createStringError("invalid value '" + text + "' for --arg " +
                                   name + ": expected " + expected);
  };
  HostArray value(dtype, 1);
  if (dtype == DType::Bool) {
    if (text != "true" && text != "false" && text != "1" && text != "0")
      return bad("true or false");
    value.setFromInt(0, text == "true" || text == "1");
    return value;
  }
  if (isInteger(dtype)) {
    // The type's range: [-2^(w-1), 2^(w-1) - 1], or [0, 2^w - 1] unsigned
    // (u64's upper half read as unsigned, held as its bits).
    unsigned bits = getIntegerBitWidth(dtype);
    bool isUnsigned = isUnsignedInteger(dtype);
    std::string range = isUnsigned
                            ? "0 to " + std::to_string(~0ull >> (64 - bits))
                            : std::to_string(-(1ll << (bits - 2)) * 2) +
                                  " to " + std::to_string(~0ull >> (65 - bits));
    auto expected = [&] {
      return bad("an integer of " + getDTypeName(dtype).str() + " (" + range +
                 ")");
    };
    if (isUnsigned) {
      unsigned long long parsed;
      if (text.getAsInteger(0, parsed) ||
          (bits < 64 && parsed > (~0ull >> (64 - bits))))
        return expected();
      value.setFromInt(0, static_cast<int64_t>(parsed));
      return value;
    }
    long long parsed;
    long long max = static_cast<long long>(~0ull >> (65 - bits));
    if (text.getAsInteger(0, parsed) || parsed > max || parsed < -max - 1)
      return expected();
    value.setFromInt(0, parsed);
    return value;
  }
  // Rounded once to the parameter's type, as a literal is (inf and nan
  // read too).
  std::optional<double> parsed = parseDecimal(text, dtype);
  if (!parsed)
    return bad("a number");
  value.setFromDouble(0, *parsed);
  return value;
}

//===----------------------------------------------------------------------===//
// Strided arrays and layouts
//===----------------------------------------------------------------------===//

/// Calls `fn(index, element)` for every point of a view, in row-major order:
/// `index` counts the points, `element` is the point's storage element.
template <typename Fn>
static void forEachElement(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> strides, int64_t offset,
                           Fn fn) {
  for (int64_t extent : shape)
    if (extent == 0)
      return;
  std::vector<int64_t> coords(shape.size(), 0);
  int64_t element = offset;
  for (int64_t index = 0;; ++index) {
    fn(index, element);
    size_t d = shape.size();
    while (d > 0) {
      --d;
      if (++coords[d] < shape[d]) {
        element += strides[d];
        break;
      }
      element -= (shape[d] - 1) * strides[d];
      coords[d] = 0;
      if (d == 0)
        return;
    }
    if (shape.empty())
      return;
  }
}

/// Copies element `from` of `source` to element `to` of `dest` (one dtype).
static void copyElement(const HostArray &source, int64_t from, HostArray &dest,
                        int64_t to) {
  size_t size = getDTypeSize(source.getDType());
  std::memcpy(static_cast<uint8_t *>(dest.data()) + to * size,
              static_cast<const uint8_t *>(source.data()) + from * size, size);
}

StridedArray StridedArray::ofScalar(HostArray value) {
  StridedArray array;
  array.storage = std::move(value);
  return array;
}

StridedArray StridedArray::ofContiguous(HostArray value,
                                        std::vector<int64_t> shape,
                                        bool fortranOrder) {
  StridedArray array;
  array.storage = std::move(value);
  if (fortranOrder) {
    std::vector<int64_t> reversed(shape.rbegin(), shape.rend());
    std::vector<int64_t> strides = getContiguousStrides(reversed);
    array.strides.assign(strides.rbegin(), strides.rend());
  } else {
    array.strides = getContiguousStrides(shape);
  }
  array.shape = std::move(shape);
  return array;
}

ArrayView StridedArray::getView() const {
  ArrayView view;
  view.array = &storage;
  view.offset = offset;
  view.shape = shape;
  view.strides = strides;
  return view;
}

int64_t StridedArray::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

int64_t StridedArray::getElement(int64_t index) const {
  int64_t element = offset;
  for (size_t d = shape.size(); d-- > 0;) {
    element += (index % shape[d]) * strides[d];
    index /= shape[d];
  }
  return element;
}

HostArray StridedArray::toContiguous() const {
  HostArray result =
      HostArray::getUninitialized(storage.getDType(), getNumElements());
  forEachElement(shape, strides, offset, [&](int64_t index, int64_t element) {
    copyElement(storage, element, result, index);
  });
  return result;
}

llvm::StringRef check::getLayoutName(Layout layout) {
  switch (layout) {
  case Layout::Contiguous:
    return "contiguous";
  case Layout::Padded:
    return "padded";
  case Layout::Transposed:
    return "transposed";
  case Layout::Strided:
    return "strided";
  case Layout::Random:
    return "random";
  }
  llvm_unreachable("unknown layout");
}

static constexpr Layout kLayouts[] = {Layout::Contiguous, Layout::Padded,
                                      Layout::Transposed, Layout::Strided,
                                      Layout::Random};

std::optional<Layout> check::parseLayoutName(llvm::StringRef name) {
  for (Layout layout : kLayouts)
    if (getLayoutName(layout) == name)
      return layout;
  return std::nullopt;
}

std::string check::getLayoutNames() {
  return llvm::join(llvm::map_range(kLayouts, getLayoutName), ", ");
}

Layout check::getLayoutOf(const InputSpec &spec, unsigned tensor) {
  if (spec.layout != Layout::Random)
    return spec.layout;
  // A stream of its own, apart from the parameters' values.
  uint64_t draw = deriveParamSeed(spec.seed ^ 0x1a7e0u, tensor);
  return kLayouts[draw % (std::size(kLayouts) - 1)];
}

int64_t check::getOffsetOf(const InputSpec &spec, unsigned tensor) {
  int64_t offset = spec.offset;
  if (tensor < spec.tensorOffsets.size())
    offset += spec.tensorOffsets[tensor];
  if (spec.layout != Layout::Random)
    return offset;
  // A stream of its own, apart from the layouts' and the values'.
  uint64_t draw = deriveParamSeed(spec.seed ^ 0x0ff5e7u, tensor);
  return offset + static_cast<int64_t>(draw % 4);
}

/// How many elements past a padded row's extent the next row starts: odd,
/// so that rows start at every alignment.
static constexpr int64_t kRowPadding = 3;

TensorPlacement check::placeTensor(std::vector<int64_t> shape, Layout layout,
                                   int64_t offset) {
  assert(layout != Layout::Random && "draw the layout first");
  TensorPlacement placement;
  placement.offset = offset;
  switch (layout) {
  case Layout::Contiguous:
  case Layout::Random:
    placement.strides = getContiguousStrides(shape);
    break;
  case Layout::Padded: {
    std::vector<int64_t> padded = shape;
    if (shape.size() >= 2)
      padded.back() += kRowPadding;
    placement.strides = getContiguousStrides(padded);
    break;
  }
  case Layout::Transposed: {
    std::vector<int64_t> reversed(shape.rbegin(), shape.rend());
    std::vector<int64_t> strides = getContiguousStrides(reversed);
    placement.strides.assign(strides.rbegin(), strides.rend());
    break;
  }
  case Layout::Strided:
    placement.strides = getContiguousStrides(shape);
    for (int64_t &stride : placement.strides)
      if (__builtin_mul_overflow(stride, 2, &stride))
        stride = std::numeric_limits<int64_t>::max();
    break;
  }
  // Saturating: extents from the command line may describe more memory
  // than exists; the memory checks refuse them after.
  int64_t span = 1;
  bool overflow = false;
  for (auto [extent, stride] : llvm::zip(shape, placement.strides)) {
    int64_t reach;
    if (extent == 0 || span == 0)
      span = 0;
    else if (__builtin_mul_overflow(extent - 1, stride, &reach) ||
             __builtin_add_overflow(span, reach, &span))
      overflow = true;
  }
  if (overflow || __builtin_add_overflow(offset, span, &span))
    span = std::numeric_limits<int64_t>::max();
  placement.shape = std::move(shape);
  placement.storageElements = span;
  return placement;
}

StridedArray check::makePoisonedTensor(DType dtype, std::vector<int64_t> shape,
                                       Layout layout, int64_t offset,
                                       bool secondPoison) {
  TensorPlacement placement = placeTensor(std::move(shape), layout, offset);
  StridedArray array;
  array.offset = placement.offset;
  array.shape = std::move(placement.shape);
  array.strides = std::move(placement.strides);
  array.storage = HostArray::getUninitialized(dtype, placement.storageElements);
  array.storage.fillPoison(secondPoison);
  return array;
}

/// `values`, row-major over `shape`, laid out as `layout` at `offset`.
static StridedArray layOut(HostArray values, std::vector<int64_t> shape,
                           Layout layout, int64_t offset) {
  if (layout == Layout::Contiguous && offset == 0)
    return StridedArray::ofContiguous(std::move(values), std::move(shape));
  StridedArray array =
      makePoisonedTensor(values.getDType(), std::move(shape), layout, offset);
  forEachElement(array.shape, array.strides, array.offset,
                 [&](int64_t index, int64_t element) {
                   copyElement(values, index, array.storage, element);
                 });
  return array;
}

//===----------------------------------------------------------------------===//
// Dimensions and inputs
//===----------------------------------------------------------------------===//

llvm::Expected<InputArrays>
check::loadInputFiles(llvm::ArrayRef<NamedFile> files,
                      llvm::ArrayRef<const KernelDecl *> kernels) {
  InputArrays arrays;
  for (const NamedFile &input : files) {
    const ParamDecl *param = nullptr;
    const KernelDecl *owner = nullptr;
    for (const KernelDecl *kernel : kernels)
      if ((param = kernel->lookupParam(input.name))) {
        owner = kernel;
        break;
      }
    if (!param)
      return llvm::createStringError("unknown --input '" + input.name +
                                     "': no kernel has a parameter of that "
                                     "name");
    if (!param->isTensor())
      return llvm::createStringError(
          "--input " + input.name + ": '" + input.name +
          "' is a scalar parameter; give its value with --arg " + input.name +
          "=VALUE");
    llvm::Expected<NpyArray> array =
        readNpyArrayFile(input.path, param->getDType());
    if (!array)
      return llvm::createStringError(
          "--input " + input.name +
          (kernels.size() > 1 ? " (of kernel '" + owner->getName() + "')"
                              : llvm::Twine()) +
          ": " + llvm::toString(array.takeError()));
    arrays[input.name] = std::move(*array);
  }
  return arrays;
}

/// The file of parameter `param` of `kernel`, or null.
static const NpyArray *lookupFile(const InputSpec &spec,
                                  const ParamSignature &param) {
  if (!spec.files || !param.isTensor)
    return nullptr;
  auto it = spec.files->find(param.name);
  return it == spec.files->end() ? nullptr : &it->getValue();
}

llvm::Expected<DimBindings> check::bindRunDims(const KernelDecl &kernel,
                                               const InputSpec &spec) {
  KernelSignature signature = getKernelSignature(kernel);
  // What the files say, first file first; bindDims reports any conflict.
  llvm::StringMap<int64_t> fromFiles;
  llvm::StringMap<std::string> boundByFile;
  std::optional<std::vector<int64_t>> batchFromFiles;
  bool paramHasBatch = false;
  for (const ParamSignature &param : signature.params) {
    if (!param.isTensor)
      continue;
    bool batch = !param.dims.empty() && param.dims.front() == kBatchDim;
    paramHasBatch |= batch;
    const NpyArray *file = lookupFile(spec, param);
    if (!file)
      continue;
    size_t named = param.dims.size() - batch;
    if (file->shape.size() < named)
      continue;
    size_t batchRank = file->shape.size() - named;
    for (size_t i = 0; i < named; ++i)
      if (fromFiles
              .try_emplace(param.dims[batch + i], file->shape[batchRank + i])
              .second)
        boundByFile[param.dims[batch + i]] = param.name;
    if (batch && !batchFromFiles)
      batchFromFiles.emplace(file->shape.begin(),
                             file->shape.begin() + batchRank);
  }
  // A --dim that a file contradicts: said in the flags' words (bindDims
  // would blame a tensor whose shape came from the --dim).
  for (const auto &given : spec.dims) {
    auto file = fromFiles.find(given.getKey());
    if (file != fromFiles.end() && file->getValue() != given.getValue())
      return llvm::createStringError(
          llvm::formatv("--dim {0}={1} disagrees with --input {2}, which has "
                        "{0} = {3}",
                        given.getKey(), given.getValue(),
                        boundByFile[given.getKey()], file->getValue())
              .str());
  }
  auto extentOf = [&](llvm::StringRef dim) {
    auto given = spec.dims.find(dim);
    if (given != spec.dims.end())
      return given->getValue();
    auto file = fromFiles.find(dim);
    return file != fromFiles.end() ? file->getValue() : spec.n;
  };
  bool hasNamedDims = llvm::any_of(
      signature.dims, [](const std::string &dim) { return dim != kBatchDim; });
  std::vector<int64_t> batch = spec.batch       ? *spec.batch
                               : batchFromFiles ? *batchFromFiles
                               : !hasNamedDims  ? std::vector<int64_t>{spec.n}
                                                : std::vector<int64_t>{};
  for (int64_t extent : batch)
    if (extent < 0)
      return llvm::createStringError(
          llvm::formatv("--batch cannot have the extent {0}", extent).str());

  // The shapes of the tensor parameters, as bindDims takes them.
  std::vector<TensorArg> shapes(signature.params.size());
  std::vector<const TensorArg *> tensors(signature.params.size(), nullptr);
  llvm::StringSet<> paramDims;
  for (auto [index, param] : llvm::enumerate(signature.params)) {
    if (!param.isTensor)
      continue;
    TensorArg &tensor = shapes[index];
    if (const NpyArray *file = lookupFile(spec, param)) {
      tensor.shape = file->shape;
    } else {
      for (const std::string &dim : param.dims)
        if (dim == kBatchDim)
          tensor.shape.insert(tensor.shape.end(), batch.begin(), batch.end());
        else
          tensor.shape.push_back(extentOf(dim));
    }
    for (const std::string &dim : param.dims)
      paramDims.insert(dim);
    // Only the shapes bind: the strides are any valid ones.
    tensor.strides.assign(tensor.shape.size(), 0);
    tensors[index] = &tensor;
  }
  // The given extents of this kernel's dimensions (a file of kernels shares
  // the --dim flags), and those of the dimensions no parameter has (a
  // result's own, as fill's), which take their extent as the others do.
  llvm::StringMap<int64_t> dims;
  for (const auto &given : spec.dims)
    if (llvm::is_contained(signature.dims, given.getKey()))
      dims[given.getKey()] = given.getValue();
  for (const std::string &dim : signature.dims)
    if (dim != kBatchDim && !paramDims.contains(dim))
      dims.try_emplace(dim, extentOf(dim));
  llvm::Expected<DimBindings> bindings = bindDims(signature, tensors, {}, dims);
  if (!bindings)
    return bindings.takeError();
  if (signature.hasBatch() && !paramHasBatch)
    bindings->batchShape = batch;
  return bindings;
}

llvm::Expected<std::vector<StridedArray>>
check::makeInputs(const KernelDecl &kernel, const InputSpec &spec,
                  const DimBindings &bindings) {
  KernelSignature signature = getKernelSignature(kernel);
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int64_t> sizes;
  for (const ParamSignature &param : signature.params) {
    shapes.push_back(param.isTensor ? getTensorShape(param.dims, bindings)
                                    : std::vector<int64_t>{});
    int64_t size = 1;
    for (int64_t extent : shapes.back())
      size *= extent;
    sizes.push_back(size);
  }
  std::vector<HostArray> values =
      makeRandomInputs(kernel, sizes, spec.seed, spec.kind);
  if (spec.files)
    for (const auto &file : *spec.files) {
      const ParamDecl *param = kernel.lookupParam(file.getKey());
      if (!param)
        continue;
      const NpyArray &array = file.getValue();
      if (!param->isTensor() || param->getDType() != array.array.getDType())
        return llvm::createStringError(
            "--input " + file.getKey() + ": kernel '" + kernel.getName() +
            "' takes '" + file.getKey() + "' as " +
            (param->isTensor() ? "" : "a scalar ") +
            getDTypeName(param->getDType()) + ", but another kernel as a " +
            getDTypeName(array.array.getDType()) + " tensor");
      if (array.shape != shapes[param->getIndex()])
        return llvm::createStringError(
            "--input " + file.getKey() + ": kernel '" + kernel.getName() +
            "' takes '" + file.getKey() + "' with another shape than " +
            "another kernel; give each kernel its own run");
      StridedArray fileArray = StridedArray::ofContiguous(
          array.array, array.shape, array.fortranOrder);
      values[param->getIndex()] = array.fortranOrder
                                      ? fileArray.toContiguous()
                                      : std::move(fileArray.storage);
    }
  for (const ScalarArg &arg : spec.args) {
    const ParamDecl *param = kernel.lookupParam(arg.name);
    if (!param)
      continue;
    if (param->isTensor())
      return llvm::createStringError(
          "--arg " + arg.name + ": '" + arg.name +
          "' is a tensor parameter; only scalar parameters take values");
    llvm::Expected<HostArray> value =
        parseScalar(param->getDType(), arg.value, arg.name);
    if (!value)
      return value.takeError();
    values[param->getIndex()] = std::move(*value);
  }
  std::vector<StridedArray> inputs;
  unsigned tensor = 0;
  for (auto [index, param] : llvm::enumerate(signature.params)) {
    if (!param.isTensor) {
      inputs.push_back(StridedArray::ofScalar(std::move(values[index])));
      continue;
    }
    inputs.push_back(layOut(std::move(values[index]), shapes[index],
                            getLayoutOf(spec, tensor),
                            getOffsetOf(spec, tensor)));
    ++tensor;
  }
  return inputs;
}

llvm::Expected<LaunchValues> check::getLaunchValues(
    const KernelDecl &kernel, const KernelSignature &compiled,
    llvm::ArrayRef<StridedArray> inputs, llvm::ArrayRef<ScalarArg> args) {
  LaunchValues values;
  // The pointers into it stay valid: it never grows beyond this.
  values.compiledDefaults.reserve(kernel.getParams().size());
  for (const auto &param : kernel.getParams()) {
    const StridedArray *input = &inputs[param->getIndex()];
    bool given = llvm::any_of(args, [&](const ScalarArg &arg) {
      return arg.name == param->getName();
    });
    if (param->hasDefault() && !given) {
      const ParamSignature *compiledParam =
          param->getIndex() < compiled.params.size()
              ? &compiled.params[param->getIndex()]
              : nullptr;
      if (!compiledParam || !compiledParam->defaultValue)
        return llvm::createStringError(
            "the compiled kernel '" + kernel.getName() +
            "' has no default for parameter '" + param->getName() + "'");
      // The ABI's own bytes of the value: a one-element HostArray holds
      // exactly that layout.
      HostArray value(compiledParam->defaultValue->dtype, 1);
      compiledParam->defaultValue->toBytes(value.data());
      input = &values.compiledDefaults.emplace_back(
          StridedArray::ofScalar(std::move(value)));
    }
    values.params.push_back(input);
  }
  return values;
}

llvm::Error check::checkHostMemory(const KernelDecl &kernel,
                                   const InputSpec &spec,
                                   const DimBindings &bindings) {
  // Each tensor input (twice where it is laid out from a contiguous array),
  // and each result twice (the output and, where it is not contiguous, its
  // contiguous copy). The reference works in blocks beyond that.
  KernelSignature signature = getKernelSignature(kernel);
  uint64_t needed = 0;
  bool overflow = false;
  unsigned tensor = 0;
  auto add = [&](llvm::ArrayRef<int64_t> shape, DType dtype) {
    Layout layout = getLayoutOf(spec, tensor);
    int64_t offset = getOffsetOf(spec, tensor++);
    // Saturating: the extents come from the command line.
    uint64_t elements = 1;
    for (int64_t extent : shape)
      elements =
          llvm::SaturatingMultiply<uint64_t>(elements, extent, &overflow);
    // Doubled strides take at most twice the elements, rows padded by 3 at
    // most four times (rows of one element).
    if (layout != Layout::Contiguous)
      elements = llvm::SaturatingMultiply<uint64_t>(
          elements, layout == Layout::Padded ? 4 : 2, &overflow);
    uint64_t bytes = llvm::SaturatingMultiply<uint64_t>(
        llvm::SaturatingAdd<uint64_t>(elements, offset, &overflow),
        getDTypeSize(dtype), &overflow);
    needed = llvm::SaturatingAdd<uint64_t>(needed, 2 * bytes, &overflow);
  };
  for (const ParamSignature &param : signature.params)
    if (param.isTensor)
      add(getTensorShape(param.dims, bindings), param.dtype);
  for (unsigned r = 0; r < signature.results.size(); ++r)
    add(getResultShape(signature, bindings, r), signature.results[r].dtype);
  uint64_t available = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                       static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (!overflow && needed <= available)
    return llvm::Error::success();
  // The extents, as the user gave them: "n = 5, m = 3, ... = [2, 4]".
  std::string extents;
  for (const std::string &dim : signature.dims) {
    extents += extents.empty() ? "" : ", ";
    if (dim != kBatchDim) {
      extents += llvm::formatv("{0} = {1}", dim, bindings.extents.lookup(dim));
      continue;
    }
    extents +=
        "... = [" +
        llvm::join(llvm::map_range(bindings.batchShape,
                                   [](int64_t e) { return std::to_string(e); }),
                   ", ") +
        "]";
  }
  return llvm::createStringError(
      llvm::formatv("kernel '{0}' with {1} needs {2:F1} GiB of host memory, "
                    "more than this machine's {3:F1} GiB",
                    kernel.getName(), extents, needed / double(1ull << 30),
                    available / double(1ull << 30))
          .str());
}
