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

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

using namespace ewc;

std::unique_ptr<ModuleDecl> ewc::parseAndCheck(llvm::SourceMgr &sourceMgr) {
  Diagnostics diags(sourceMgr);
  std::unique_ptr<ModuleDecl> module = parseModule(diags);
  if (!module || !checkModule(*module, diags))
    return nullptr;
  return module;
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
