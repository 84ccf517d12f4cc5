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

#include <string>

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
    if (!context.empty())
      sourceMgr.PrintMessage(contextLoc, llvm::SourceMgr::DK_Note, context);
  }

  /// Reports a warning; warnings do not make the front end fail.
  void warning(llvm::SMLoc loc, const llvm::Twine &msg,
               llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    if (!quiet)
      sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Warning, msg, ranges);
  }

  /// A note printed after every error until cleared: which specialization
  /// of a generic kernel sema was checking ("" clears it).
  void setContext(llvm::SMLoc loc, std::string note) {
    contextLoc = loc;
    context = std::move(note);
  }
  /// Drops warnings while set: a generic kernel's second and later
  /// specializations would repeat its first one's.
  void setQuiet(bool newQuiet) { quiet = newQuiet; }

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
  llvm::SMLoc contextLoc;
  std::string context;
  bool quiet = false;
};

} // namespace ewc

#endif // EWC_FRONTEND_DIAGNOSTICS_H
