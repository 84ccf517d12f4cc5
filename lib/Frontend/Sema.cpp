//===- Sema.cpp - Semantic checks of the ew language ----------------------===//
//
// The kernel-level checks: the signature (parameters, defaults, the one
// length), the statements (lets, the return) and the module (kernel names).
// Expressions and their typing are in SemaExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Sema.h"
#include "KernelChecker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"

using namespace ewc;
using llvm::cast;
using llvm::dyn_cast;

using namespace ewc::sema;

//===----------------------------------------------------------------------===//
// Kernel signature
//===----------------------------------------------------------------------===//

void KernelChecker::check() {
  unsigned errorsBefore = diags.getNumErrors();
  checkSignature();
  for (const std::unique_ptr<Stmt> &stmt : kernel.getBody()) {
    if (auto *let = dyn_cast<LetStmt>(stmt.get()))
      checkLet(*let);
    else
      checkReturn(*cast<ReturnStmt>(stmt.get()));
  }

  // Lets never used in a typed context take their default type. Later lets
  // go first: `let c = 2; let d = c + 0.5;` must make `c` an f32, as `d`
  // needs, not the i32 that `c` alone would default to.
  for (const std::unique_ptr<Stmt> &stmt : llvm::reverse(kernel.getBody())) {
    auto *let = dyn_cast<LetStmt>(stmt.get());
    if (!let)
      continue;
    LetInfo &info = letInfos[let];
    if (info.checked.isWeak() && !let->getInit().hasType() &&
        resolveWeak(let->getInit(), getDefaultDType(info.checked)))
      info.checked.state = Checked::State::Typed;
  }
  if (firstIndexFlat && firstCombine)
    diags.error(firstIndexFlat->getLoc(),
                "'index_flat' is not supported yet in a kernel with "
                "reductions or scans, such as " +
                    getDisplayName(*firstCombine) +
                    " here; write the position from named dimensions",
                {firstIndexFlat->getRange(), firstCombine->getRange()});
  // Unused lets are worth a warning only in a kernel that is otherwise right;
  // next to an error they are mostly its echo.
  if (diags.getNumErrors() != errorsBefore)
    return;
  for (const std::unique_ptr<Stmt> &stmt : kernel.getBody())
    if (auto *let = dyn_cast<LetStmt>(stmt.get()))
      if (!letInfos[let].used)
        diags.warning(let->getNameRange().Start,
                      "unused let '" + let->getName() + "'",
                      let->getNameRange());
}

void KernelChecker::checkSignature() {
  numberDimensions();
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams()) {
    auto [it, inserted] = params.try_emplace(param->getName(), param.get());
    if (!inserted) {
      diags.error(param->getLoc(),
                  "duplicate parameter '" + param->getName() + "'",
                  param->getNameRange());
      diags.note(it->second->getLoc(), "previous definition is here");
    }
    checkDefault(*param);
  }

  // A kernel computes arrays: its results are tensors. (A scalar result
  // would be one value for all elements; the ew dialect has none.)
  for (const TypeSpec &result : kernel.getResults())
    if (!result.isTensor)
      diags.error(result.range.Start,
                  "kernel results must be tensors; write '" +
                      getDTypeName(result.dtype) + "[n]' instead of '" +
                      getDTypeName(result.dtype) + "'",
                  result.range);
}

void KernelChecker::numberDimensions() {
  // `...` first, then the names in the order they first appear.
  std::vector<std::string> dims;
  auto types = [&](auto visit) {
    for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
      visit(param->getTypeSpec());
    for (TypeSpec &result : kernel.getResults())
      visit(result);
  };
  types([&](const TypeSpec &type) {
    if (type.hasBatch && (dims.empty() || dims.front() != kBatchDimName))
      dims.insert(dims.begin(), kBatchDimName.str());
  });
  types([&](const TypeSpec &type) {
    for (const DimSpec &dim : type.dims)
      if (!llvm::is_contained(dims, dim.name))
        dims.push_back(dim.name);
  });
  kernel.setDims(dims);

  types([&](TypeSpec &type) {
    type.dimIds.clear();
    if (type.hasBatch)
      type.dimIds.push_back(0);
    for (auto [i, dim] : llvm::enumerate(type.dims)) {
      DimId id = *kernel.lookupDim(dim.name);
      llvm::ArrayRef<DimSpec> before = llvm::ArrayRef(type.dims).take_front(i);
      const DimSpec *previous =
          llvm::find_if(before, [&, &dim = dim](const DimSpec &other) {
            return other.name == dim.name;
          });
      if (previous != before.end()) {
        diags.error(dim.range.Start,
                    "dimension '" + dim.name + "' appears twice in '" +
                        formatType(type) +
                        "'; each dimension of a tensor has its own name",
                    {dim.range, previous->range});
        continue;
      }
      type.dimIds.push_back(id);
    }
    type.shape.assign(type.dimIds.begin(), type.dimIds.end());
    llvm::sort(type.shape);
  });
}

void KernelChecker::checkDefault(ParamDecl &param) {
  Expr *value = param.getDefault();
  if (!value)
    return;
  if (param.isTensor()) {
    diags.error(value->getLoc(),
                "default value on tensor parameter '" + param.getName() +
                    "'; only scalar parameters can have one",
                value->getRange());
    return;
  }
  if (auto *b = dyn_cast<BoolExpr>(value)) {
    b->setType({DType::Bool, {}});
    if (param.getDType() != DType::Bool)
      diags.error(value->getLoc(),
                  "type mismatch: the default value of '" + param.getName() +
                      "' is bool but the parameter is " +
                      formatType(param.getType()),
                  value->getRange());
    return;
  }
  // A default is stored in the parameter's own type, so it must fit that
  // type, not merely the f32 that f16 and bf16 compute in.
  if (auto *number = dyn_cast<NumberExpr>(value))
    if (checkLiteralFits(*number, param.getDType(), /*asStored=*/true))
      number->setType(param.getType());
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void KernelChecker::checkLet(LetStmt &let) {
  Checked checked = checkExpr(let.getInit());
  LetInfo &info = letInfos[&let];
  info.let = &let;
  info.checked = checked;

  llvm::SMLoc previous;
  if (const ParamDecl *param = params.lookup(let.getName()))
    previous = param->getLoc();
  else if (LetStmt *other = lets.lookup(let.getName()))
    previous = other->getNameRange().Start;
  if (previous.isValid()) {
    diags.error(let.getNameRange().Start,
                "redefinition of '" + let.getName() + "'", let.getNameRange());
    diags.note(previous, "previous definition is here");
    info.used = true; // One message for this let is enough.
    return;
  }
  lets[let.getName()] = &let;
}

void KernelChecker::checkReturn(ReturnStmt &ret) {
  size_t numResults = kernel.getResults().size();
  size_t numValues = ret.getValues().size();
  if (numValues != numResults)
    diags.error(ret.getLoc(),
                "result count mismatch: kernel '" + kernel.getName() +
                    "' declares " + llvm::Twine(numResults) +
                    (numResults == 1 ? " result" : " results") +
                    " but returns " + llvm::Twine(numValues) +
                    (numValues == 1 ? " value" : " values"),
                ret.getRange());

  for (size_t i = 0; i < numValues; ++i) {
    Expr &value = ret.getValue(i);
    Checked checked = checkExpr(value);
    if (!checked.ok())
      continue;
    if (i >= numResults) {
      if (checked.isWeak())
        resolveWeak(value, getDefaultDType(checked));
      continue;
    }
    ValueType declared = kernel.getResultType(i);
    const TypeSpec &declaredSpec = kernel.getResults()[i];
    if (checked.isWeak() && !resolveWeak(value, declared.dtype))
      continue;
    // A scalar result type has been reported with the signature.
    if (!declared.isTensor())
      continue;
    std::string which = numResults == 1 ? std::string("the result")
                                        : "result " + std::to_string(i + 1);
    if (value.getType().dtype != declared.dtype) {
      diags.error(value.getLoc(),
                  "type mismatch: " + which + " of kernel '" +
                      kernel.getName() + "' is declared " +
                      formatType(declaredSpec) + " but the returned value is " +
                      formatType(value.getType()),
                  {value.getRange(), declaredSpec.range});
      continue;
    }
    // A value broadcasts over the dimensions of the result it lacks (a
    // scalar over all of them), but it cannot have one the result lacks:
    // which of its elements would the result hold?
    for (DimId dim : value.getType().shape)
      if (!llvm::is_contained(declared.shape, dim)) {
        diags.error(value.getLoc(),
                    "the returned value has dimension '" +
                        kernel.getDimName(dim) + "', which " + which + " " +
                        formatType(declaredSpec) + " of kernel '" +
                        kernel.getName() + "' lacks",
                    {value.getRange(), declaredSpec.range});
        break;
      }
  }
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

namespace {

/// "leaky_relu<T=f16>": the kernel under `types`.
std::string formatSpecialization(const KernelDecl &kernel,
                                 llvm::ArrayRef<DType> types) {
  std::string result = kernel.getName().str() + "<";
  for (auto [index, param] : llvm::enumerate(kernel.getTypeParams()))
    result += (index ? ", " : "") + param.name + "=" +
              getDTypeName(types[index]).str();
  return result + ">";
}

/// Binds `kernel`'s type parameters from `binding` and gives each type that
/// names one its element type; false after reporting a type the
/// parameter's constraint does not admit.
bool bindTypeParams(KernelDecl &kernel, const TypeBinding &binding,
                    Diagnostics &diags) {
  llvm::SmallVector<DType, 2> types;
  bool bound = true;
  for (const TypeParamDecl &param : kernel.getTypeParams()) {
    llvm::ArrayRef<DType> admitted = getAdmittedDTypes(param.constraint);
    auto it = binding.find(param.name);
    if (it == binding.end()) {
      bound = false;
      types.push_back(admitted.front());
      continue;
    }
    if (!llvm::is_contained(admitted, it->second)) {
      std::string list;
      for (auto [index, dtype] : llvm::enumerate(admitted))
        list += (index ? ", " : "") + getDTypeName(dtype).str();
      diags.error(param.nameRange.Start,
                  "kernel '" + kernel.getName() + "' cannot take " +
                      param.name + " = " + getDTypeName(it->second) + ": '" +
                      param.name + ": " + getConstraintName(param.constraint) +
                      "' admits " + list,
                  param.range);
      return false;
    }
    types.push_back(it->second);
  }
  kernel.setBinding(types, bound);
  auto bind = [&](TypeSpec &type) {
    if (type.typeParam)
      type.dtype = types[*type.typeParam];
  };
  for (const std::unique_ptr<ParamDecl> &param : kernel.getParams())
    bind(param->getTypeSpec());
  for (TypeSpec &result : kernel.getResults())
    bind(result);
  return true;
}

/// Checks `kernel` under its binding; a generic kernel's errors name the
/// binding in a note.
void checkKernel(KernelDecl &kernel, Diagnostics &diags) {
  if (kernel.isGeneric())
    diags.setContext(kernel.getNameRange().Start,
                     "in the specialization " +
                         formatSpecialization(kernel, kernel.getBinding()));
  KernelChecker(kernel, diags).check();
  diags.setContext({}, "");
}

} // namespace

bool ewc::checkSpecialization(KernelDecl &kernel, Diagnostics &diags,
                              const TypeBinding &binding) {
  unsigned errorsBefore = diags.getNumErrors();
  if (!bindTypeParams(kernel, binding, diags))
    return false;
  diags.setQuiet(true);
  checkKernel(kernel, diags);
  diags.setQuiet(false);
  return diags.getNumErrors() == errorsBefore;
}

bool ewc::checkModule(ModuleDecl &module, Diagnostics &diags,
                      const TypeBinding &binding) {
  unsigned errorsBefore = diags.getNumErrors();
  module.setBinding(binding);
  if (module.getKernels().empty()) {
    const llvm::SourceMgr &sourceMgr = module.getSourceMgr();
    const llvm::MemoryBuffer *buffer =
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    diags.error(llvm::SMLoc::getFromPointer(buffer->getBufferStart()),
                "no kernel in this file");
  }
  llvm::StringMap<const KernelDecl *> kernels;
  for (const std::unique_ptr<KernelDecl> &kernel : module.getKernels()) {
    auto [it, inserted] = kernels.try_emplace(kernel->getName(), kernel.get());
    if (!inserted) {
      diags.error(kernel->getNameRange().Start,
                  "redefinition of kernel '" + kernel->getName() + "'",
                  kernel->getNameRange());
      diags.note(it->second->getNameRange().Start,
                 "previous definition is here");
    }
    if (bindTypeParams(*kernel, binding, diags))
      checkKernel(*kernel, diags);
  }
  return diags.getNumErrors() == errorsBefore;
}
