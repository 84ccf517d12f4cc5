//===- Frontend.cpp - Entry point of the ew front end ---------------------===//
//
// parseAndCheck: the parser, then sema, sharing one Diagnostics so that the
// caller learns of an error from either by a null result.
//
//===----------------------------------------------------------------------===//

#include "ewc/Frontend/Frontend.h"
#include "ewc/Frontend/Diagnostics.h"
#include "ewc/Frontend/Parser.h"
#include "ewc/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

using namespace ewc;

std::unique_ptr<ModuleDecl> ewc::parseAndCheck(llvm::SourceMgr &sourceMgr,
                                               const TypeBinding &binding) {
  Diagnostics diags(sourceMgr);
  std::unique_ptr<ModuleDecl> module = parseModule(diags);
  if (!module || !checkModule(*module, diags, binding))
    return nullptr;
  // A template passed under the first binding it admits; check it under
  // every other one, each on a fresh parse (sema annotates the AST it
  // checks, and parsing again costs about 0.2 ms a kernel: less code than
  // cloning the AST). The first binding that fails is reported.
  for (auto [index, kernel] : llvm::enumerate(module->getKernels())) {
    if (kernel->isBound())
      continue;
    for (const TypeBinding &each : getAdmittedBindings(*kernel, binding)) {
      bool checked =
          llvm::all_of(each, [&, &kernel = kernel](const auto &entry) {
            std::optional<unsigned> param =
                kernel->lookupTypeParam(entry.first);
            return param && kernel->getBinding()[*param] == entry.second;
          });
      if (checked)
        continue;
      std::unique_ptr<ModuleDecl> again = parseModule(diags);
      assert(again && "the source parsed once");
      TypeBinding merged = each;
      merged.insert(binding.begin(), binding.end());
      if (!checkSpecialization(*again->getKernels()[index], diags, merged))
        return nullptr;
    }
  }
  return module;
}

std::vector<TypeBinding> ewc::getAdmittedBindings(const KernelDecl &kernel,
                                                  const TypeBinding &binding) {
  // The product of every free parameter's admitted types, the first
  // parameter varying slowest.
  std::vector<TypeBinding> bindings(1);
  for (const TypeParamDecl &param : kernel.getTypeParams()) {
    if (binding.count(param.name))
      continue;
    std::vector<TypeBinding> next;
    for (const TypeBinding &partial : bindings)
      for (DType dtype : getAdmittedDTypes(param.constraint)) {
        next.push_back(partial);
        next.back()[param.name] = dtype;
      }
    bindings = std::move(next);
  }
  return bindings;
}

std::string ewc::getDocComment(const llvm::SourceMgr &sourceMgr,
                               llvm::SMLoc loc) {
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  if (!id)
    return "";
  llvm::StringRef text = sourceMgr.getMemoryBuffer(id)->getBuffer();
  llvm::StringRef before = text.take_front(loc.getPointer() - text.data());
  // Code before the declaration on its own line: nothing documents it.
  size_t lineStart = before.find_last_of('\n');
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  if (!before.drop_front(lineStart).trim().empty())
    return "";
  before = before.take_front(lineStart);
  // Walk up line by line while each holds a comment alone.
  llvm::SmallVector<llvm::StringRef> lines;
  while (!before.empty()) {
    before = before.drop_back(); // the newline ending the line above
    size_t start = before.find_last_of('\n');
    start = start == llvm::StringRef::npos ? 0 : start + 1;
    llvm::StringRef line = before.drop_front(start).trim();
    if (!line.consume_front("#"))
      break;
    line.consume_front(" ");
    lines.push_back(line);
    before = before.take_front(start);
  }
  std::string doc;
  for (llvm::StringRef line : llvm::reverse(lines)) {
    doc += line.rtrim().str();
    doc += '\n';
  }
  // Without the final newline, as Python's docstrings and C comments hold it.
  while (!doc.empty() && doc.back() == '\n')
    doc.pop_back();
  return doc;
}
