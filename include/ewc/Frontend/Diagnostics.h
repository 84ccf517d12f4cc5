//===- Diagnostics.h - Front-end error reporting ----------------*- C++ -*-===//
//
// Every front-end message goes through llvm::SourceMgr::PrintMessage so that it
// reads `FILE:LINE:COL: error: MESSAGE` followed by the source line and a
// caret, and so that the lexer, parser and sema count errors in one place.
//
//===----------------------------------------------------------------------===//

#ifndef EWC_FRONTEND_DIAGNOSTICS_H
#define EWC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

namespace ewc {

/// Prints front-end diagnostics for one SourceMgr and counts the errors.
class Diagnostics {
public:
  explicit Diagnostics(llvm::SourceMgr &sourceMgr) : sourceMgr(sourceMgr) {}

  /// Reports an error with the caret at `loc` and `ranges` underlined.
  void error(llvm::SMLoc loc, const llvm::Twine &msg,
             llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    ++numErrors;
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, msg, ranges);
  }

  /// Reports a warning; warnings do not make the front end fail.
  void warning(llvm::SMLoc loc, const llvm::Twine &msg,
               llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Warning, msg, ranges);
  }

  /// Attaches a note (such as "previous definition is here") to the last
  /// error or warning.
  void note(llvm::SMLoc loc, const llvm::Twine &msg,
            llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Note, msg, ranges);
  }

  unsigned getNumErrors() const { return numErrors; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

private:
  llvm::SourceMgr &sourceMgr;
  unsigned numErrors = 0;
};

} // namespace ewc

#endif // EWC_FRONTEND_DIAGNOSTICS_H
