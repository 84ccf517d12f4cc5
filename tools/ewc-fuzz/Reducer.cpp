//===- Reducer.cpp - Shrinking a failing .ew program ----------------------===//
//
// Greedy passes to a fixed point, each keeping the first candidate that still
// fails: whole kernels out, then `let` lines out, then subexpressions (the
// largest first, so that one success removes the most) replaced by each name
// the program declares and by a few literals.
//
//===----------------------------------------------------------------------===//

#include "Reducer.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

using namespace ewc::fuzz;

namespace {

struct Span {
  size_t begin, end; // [begin, end)
};

/// The kernels of `text`, each from its `kernel` keyword to the next.
std::vector<Span> findKernels(const std::string &text) {
  std::vector<Span> spans;
  for (size_t at = text.find("kernel "); at != std::string::npos;) {
    size_t next = text.find("\nkernel ", at);
    size_t end = next == std::string::npos ? text.size() : next + 1;
    spans.push_back({at, end});
    at = next == std::string::npos ? next : next + 1;
  }
  return spans;
}

/// The lines that start with `let`.
std::vector<Span> findLets(const std::string &text) {
  std::vector<Span> spans;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    if (llvm::StringRef(text).substr(at, end - at).ltrim().starts_with("let "))
      spans.push_back({at, end});
    at = end;
  }
  return spans;
}

/// Parenthesized expressions and calls (with their function's name) inside
/// kernel bodies, largest first.
std::vector<Span> findSubexpressions(const std::string &text) {
  std::vector<Span> spans;
  std::vector<size_t> open;
  bool inBody = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{')
      inBody = true;
    else if (c == '}')
      inBody = false;
    if (!inBody)
      continue;
    if (c == '(') {
      size_t begin = i;
      while (begin > 0 && (std::isalnum(static_cast<unsigned char>(
                               text[begin - 1])) ||
                           text[begin - 1] == '_'))
        --begin;
      open.push_back(begin);
    } else if (c == ')' && !open.empty()) {
      spans.push_back({open.back(), i + 1});
      open.pop_back();
    }
  }
  std::stable_sort(spans.begin(), spans.end(), [](Span a, Span b) {
    return a.end - a.begin > b.end - b.begin;
  });
  return spans;
}

/// Names the program declares (pN, vN) and a few literals of each kind.
std::vector<std::string> getReplacements(const std::string &text) {
  std::set<std::string> names;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if ((text[i] != 'p' && text[i] != 'v') ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                   text[i - 1] == '_')))
      continue;
    size_t j = i + 1;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
      ++j;
    if (j > i + 1 && !std::isalnum(static_cast<unsigned char>(text[j])))
      names.insert(text.substr(i, j - i));
  }
  std::vector<std::string> result(names.begin(), names.end());
  for (const char *literal : {"0", "1", "0.5", "true", "false"})
    result.push_back(literal);
  return result;
}

} // namespace

std::string
ewc::fuzz::reduceProgram(const std::string &text,
                         llvm::function_ref<bool(const std::string &)>
                             stillFails,
                         unsigned maxAttempts) {
  std::string best = text;
  unsigned attempts = 0;
  auto tryCandidate = [&](const std::string &candidate) {
    if (attempts >= maxAttempts || candidate.size() >= best.size())
      return false;
    ++attempts;
    if (!stillFails(candidate))
      return false;
    best = candidate;
    return true;
  };
  auto cut = [&](Span span, const std::string &with) {
    return best.substr(0, span.begin) + with + best.substr(span.end);
  };
  for (bool progress = true; progress && attempts < maxAttempts;) {
    progress = false;
    for (const auto &finder : {findKernels, findLets}) {
      // Spans go stale after a success: look again from the start.
      for (bool again = true; again;) {
        again = false;
        for (Span span : finder(best))
          if (tryCandidate(cut(span, ""))) {
            again = progress = true;
            break;
          }
      }
    }
    for (bool again = true; again;) {
      again = false;
      std::vector<std::string> replacements = getReplacements(best);
      for (Span span : findSubexpressions(best)) {
        for (const std::string &with : replacements)
          if (tryCandidate(cut(span, with))) {
            again = progress = true;
            break;
          }
        if (again)
          break;
      }
    }
  }
  return best;
}
