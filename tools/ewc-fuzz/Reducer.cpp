//===- Reducer.cpp - Shrinking a failing .ew program ----------------------===//
//
// Greedy passes to a fixed point, each keeping the first candidate that still
// fails: whole kernels out, then `let` lines out, then subexpressions (the
// largest first, so that one success removes the most) replaced by each name
// the program declares and by a few literals, then parameters out of the
// signatures and dimensions out of their types (`f32[m, n]` to `f32[n]`,
// `f32[n]` to the scalar `f32`), which lowers the rank of an N-D failure.
// The shape the program runs over is the caller's: the reducer changes the
// text only.
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

/// The items of the list between `open` and `close` (exclusive), separated
/// by top-level commas (a comma inside `[...]` is a type's), each span with
/// its separator so that cutting it leaves a list: an item before another
/// with the comma and space after it, the last one of several with the
/// comma before it, a lone item alone (or with `[` and `]` if `brackets`,
/// so that `f32[n]` becomes `f32`).
void addListItems(const std::string &text, size_t open, size_t close,
                  bool brackets, std::vector<Span> &spans) {
  std::vector<size_t> commas;
  unsigned depth = 0;
  for (size_t i = open + 1; i < close; ++i) {
    if (text[i] == '[')
      ++depth;
    else if (text[i] == ']' && depth)
      --depth;
    else if (text[i] == ',' && !depth)
      commas.push_back(i);
  }
  if (commas.empty()) {
    if (close > open + 1)
      spans.push_back(brackets ? Span{open, close + 1} : Span{open + 1, close});
    return;
  }
  auto startAfter = [&](size_t comma) {
    size_t start = comma + 1;
    while (start < close && text[start] == ' ')
      ++start;
    return start;
  };
  for (size_t i = 0; i <= commas.size(); ++i) {
    size_t start = i == 0 ? open + 1 : startAfter(commas[i - 1]);
    if (i < commas.size())
      spans.push_back({start, startAfter(commas[i])});
    else
      spans.push_back({commas[i - 1], close});
  }
}

/// The parameters of every signature.
std::vector<Span> findParams(const std::string &text) {
  std::vector<Span> spans;
  for (Span kernel : findKernels(text)) {
    size_t open = text.find('(', kernel.begin);
    // A parameter list holds no parentheses (defaults are literals).
    size_t close = text.find(')', open);
    if (open < kernel.end && close < kernel.end)
      addListItems(text, open, close, /*brackets=*/false, spans);
  }
  return spans;
}

/// The dimensions of every type: `[...]` outside the bodies (where `[`
/// never appears).
std::vector<Span> findTypeDims(const std::string &text) {
  std::vector<Span> spans;
  for (size_t open = text.find('['); open != std::string::npos;
       open = text.find('[', open + 1)) {
    size_t close = text.find(']', open);
    if (close == std::string::npos)
      break;
    addListItems(text, open, close, /*brackets=*/true, spans);
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
      while (begin > 0 &&
             (std::isalnum(static_cast<unsigned char>(text[begin - 1])) ||
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

std::string ewc::fuzz::reduceProgram(
    const std::string &text,
    llvm::function_ref<bool(const std::string &)> stillFails,
    unsigned maxAttempts,
    llvm::function_ref<void(const std::string &)> improved) {
  std::string best = text;
  unsigned attempts = 0;
  auto tryCandidate = [&](const std::string &candidate) {
    if (attempts >= maxAttempts || candidate.size() >= best.size())
      return false;
    ++attempts;
    if (!stillFails(candidate))
      return false;
    best = candidate;
    if (improved)
      improved(best);
    return true;
  };
  auto cut = [&](Span span, const std::string &with) {
    return best.substr(0, span.begin) + with + best.substr(span.end);
  };
  bool progress = true;
  auto cutEach = [&](std::vector<Span> (*finder)(const std::string &)) {
    // Spans go stale after a success: look again from the start.
    for (bool again = true; again;) {
      again = false;
      for (Span span : finder(best))
        if (tryCandidate(cut(span, ""))) {
          again = progress = true;
          break;
        }
    }
  };
  while (progress && attempts < maxAttempts) {
    progress = false;
    cutEach(findKernels);
    cutEach(findLets);
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
    // Parameters that nothing uses any more, then the dimensions that the
    // failure does not need.
    cutEach(findParams);
    cutEach(findTypeDims);
  }
  return best;
}
