//===- Generator.cpp - Random well-typed .ew programs ---------------------===//
//
// Builds each expression top-down from the type it must have, choosing only
// operands the language accepts for that type (docs/language.md, "Mixed
// precision" and "Operand types and literal typing"):
//
// - one operand of an operation, the anchor, has the result's element type;
//   the others have it too, or are scalars of the same kind that the rules
//   convert to it (any float scalar with a float tensor; with scalars alone,
//   only types that promote to the result's), or literals, which are placed
//   only beside a typed anchor so that they are never weak;
// - a tensor result has a tensor anchor (or, for where, a tensor condition);
//   a scalar result has scalar operands only;
// - math only on floats, logic only on bool, ordering only on numbers, and
//   literals in range for the type they take.
//
// A type is an element type and a set of the kernel's dimensions, and every
// expression has exactly the dimensions asked of it: the operands of an
// operation over D have subsets of D whose union is D (the rest are added
// to the anchor), which makes broadcasts, outer products (`a[m] * b[n]`)
// and, since each parameter declares its dimensions in an order of its own,
// transposed reads (`x[m, n] + y[n, m]`). `index(d)` and `size(d)` are
// leaves of i64 (or cast) over {d} and of no dimension; a dimension they
// name that no type of the signature has yet joins the first result's (a
// result may have more dimensions than its value).
//
// Parameters are made on demand, when an expression needs a leaf of a type
// that no parameter or let has yet, and the signature is written last.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "ewc/Frontend/DType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/bit.h"

#include <cctype>
#include <cmath>

#include <optional>
#include <random>
#include <vector>

using namespace ewc::fuzz;

namespace {

/// The language's element types: their facts are DTypes.def's (DType.h);
/// the lists below are which of them the generator draws where.
using DT = ewc::DType;
constexpr DT kAllTypes[] = {DT::Bool, DT::I32, DT::I64, DT::F16,    DT::BF16,
                            DT::F32,  DT::F64, DT::I8,  DT::I16,    DT::U8,
                            DT::U16,  DT::U32, DT::U64, DT::F8E4M3, DT::F8E5M2};
constexpr DT kFloatTypes[] = {DT::F16, DT::BF16,   DT::F32,
                              DT::F64, DT::F8E4M3, DT::F8E5M2};
/// The float types that promote with another one (torch promotes the 8-bit
/// floats with none).
constexpr DT kWideFloatTypes[] = {DT::F16, DT::BF16, DT::F32, DT::F64};
constexpr DT kIntTypes[] = {DT::I32, DT::I64, DT::I8,  DT::I16,
                            DT::U8,  DT::U16, DT::U32, DT::U64};

const char *getName(DT dt) {
  // DTypes.def's spellings are string literals, so the data is terminated.
  return ewc::getDTypeName(dt).data();
}
/// Bits of a type's elements (bool: none).
unsigned getWidth(DT dt) { return dt == DT::Bool ? 0 : 8 * getDTypeSize(dt); }
/// Every float type, the 8-bit ones included (DType.h's isFloat is the four
/// computed types).
bool isAnyFloat(DT dt) { return ewc::isFloat(dt) || ewc::isFloat8(dt); }
bool isInt(DT dt) { return ewc::isInteger(dt); }
bool isUnsigned(DT dt) { return ewc::isUnsignedInteger(dt); }

/// A set of a kernel's dimensions: bit i is the program's dimension i
/// (ProgramDims::names), kBatchBit the batch `...`. Empty: a scalar.
using DimSet = unsigned;
constexpr DimSet kBatchBit = 1u << 8;

struct Type {
  DT dt;
  DimSet dims = 0;
  bool isTensor() const { return dims != 0; }
};

/// Binding strength, as the grammar's levels: a child binding less tightly
/// than its parent's level is parenthesized.
enum Prec {
  Or,
  And,
  Cmp,
  BitOr,
  BitXor,
  BitAnd,
  Shift,
  Add,
  Mul,
  Unary,
  Primary
};

struct Expr {
  std::string text;
  int prec = Primary;
};

/// A `let` bound to literals alone (`let c = 2.5;`): weak until its first
/// use beside a typed operand, which fixes its type for every later use.
struct WeakLet {
  std::string name;
  bool isFloat; // a float literal or division: never an integer type
  std::optional<DT> fixed;
};

struct Named {
  std::string name;
  Type type;
  std::string dimsText;    // tensor parameters: "[n, m]", in their order
  std::string defaultText; // scalar parameters only; empty: none
};

class KernelGen {
public:
  KernelGen(std::mt19937_64 &rng, unsigned size, const ProgramDims &dims,
            const GeneratorOptions &options)
      : rng(rng), size(size), programDims(dims), reductions(options.reductions),
        random(options.random) {}
  std::string generate(const std::string &name);

private:
  // Choices: rng's output reduced by %, the same on every platform. The
  // bias of % over 2^64 is far below anything a test could notice.
  uint64_t below(uint64_t n) { return rng() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T, size_t N> T pick(const T (&items)[N]) {
    return items[below(N)];
  }

  DimSet subsetOf(DimSet dims);
  DimSet nonEmptySubsetOf(DimSet dims);
  unsigned pickDim(DimSet dims);
  std::string formatDims(DimSet dims);

  Expr gen(Type type, int depth);
  Expr leaf(Type type);
  std::optional<Expr> dimLeaf(Type type);
  Expr literal(DT dt, bool weak = true);
  Expr weakExpression(DT dt);
  Expr weakLetOrLiteral(DT dt);
  std::vector<Expr> operands(Type type, unsigned count, int depth,
                             bool literals, DimSet covered = 0);
  DT compatibleScalar(DT dt, bool besideTensor);

  Expr genBool(Type type, int depth);
  Expr genNumber(Type type, int depth);
  Expr genWhere(Type type, int depth);
  Expr genCast(Type type, int depth);
  std::optional<Expr> genCombine(Type type, int depth);
  Expr genRandom(Type type, int depth);

  std::string intLiteral(DT dt);
  std::string floatLiteral(int minExp, int maxExp);
  std::string tieLiteral(DT dt);
  std::string defaultLiteral(DT dt);

  static Expr call(const std::string &fn, const std::vector<Expr> &args);
  static Expr infix(const Expr &lhs, const char *op, int level,
                    const Expr &rhs);
  static Expr prefix(const char *op, const Expr &operand);

  std::mt19937_64 &rng;
  unsigned size;
  const ProgramDims &programDims;
  /// Whether expressions may be reductions and scans (--reductions).
  bool reductions;
  /// Whether expressions may be random numbers (--random).
  bool random;
  /// genCombine takes attention's form where the dimensions allow it (a
  /// kernel of decode attention's shape: generate).
  bool forceAttention = false;
  /// The dimensions this kernel's types draw from, and those that an
  /// index or size names (the signature must have them).
  DimSet kernelDims = 0, dimsNamed = 0;
  std::vector<Named> params, lets;
  std::vector<WeakLet> weakLets;
};

//===----------------------------------------------------------------------===//
// Dimensions
//===----------------------------------------------------------------------===//

/// `dims` itself (45%), else each of its dimensions by a coin flip.
DimSet KernelGen::subsetOf(DimSet dims) {
  if (chance(45))
    return dims;
  DimSet subset = 0;
  for (DimSet bit = 1; bit <= dims; bit <<= 1)
    if ((dims & bit) && chance(50))
      subset |= bit;
  return subset;
}

DimSet KernelGen::nonEmptySubsetOf(DimSet dims) {
  DimSet subset = subsetOf(dims);
  return subset ? subset : DimSet(1) << pickDim(dims);
}

/// The bit of one dimension of `dims` (not empty), drawn evenly.
unsigned KernelGen::pickDim(DimSet dims) {
  std::vector<unsigned> bits;
  for (unsigned bit = 0; (DimSet(1) << bit) <= dims; ++bit)
    if (dims & (DimSet(1) << bit))
      bits.push_back(bit);
  return bits[below(bits.size())];
}

/// The dimension list of a type over `dims` (not empty): `...` first, as
/// the grammar wants, then the names in an order drawn here (values combine
/// by name, so a parameter's order is its layout: a transpose of another's).
std::string KernelGen::formatDims(DimSet dims) {
  std::vector<std::string> names;
  for (unsigned bit = 0; bit < programDims.names.size(); ++bit)
    if (dims & (DimSet(1) << bit))
      names.push_back(programDims.names[bit]);
  for (size_t i = names.size(); i > 1; --i)
    std::swap(names[i - 1], names[below(i)]);
  std::string text = dims & kBatchBit ? "..." : "";
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return "[" + text + "]";
}

//===----------------------------------------------------------------------===//
// Printing with the grammar's precedence
//===----------------------------------------------------------------------===//

std::string wrap(const Expr &e, bool parens) {
  return parens ? "(" + e.text + ")" : e.text;
}

Expr KernelGen::call(const std::string &fn, const std::vector<Expr> &args) {
  std::string text = fn + "(";
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + args[i].text;
  return {text + ")", Primary};
}

Expr KernelGen::infix(const Expr &lhs, const char *op, int level,
                      const Expr &rhs) {
  // Left-associative levels keep a same-level left child bare (`a - b - c`);
  // comparisons do not chain, so both of their sides need a higher level.
  bool leftParens = level == Cmp ? lhs.prec <= level : lhs.prec < level;
  return {wrap(lhs, leftParens) + " " + op + " " + wrap(rhs, rhs.prec <= level),
          level};
}

Expr KernelGen::prefix(const char *op, const Expr &operand) {
  std::string inner = wrap(operand, operand.prec < Unary);
  // `- -x`, not `--x`: the space keeps the two operators apart to the eye.
  return {op + std::string(inner[0] == '-' ? " " : "") + inner, Unary};
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

std::string KernelGen::intLiteral(DT dt) {
  uint64_t r = below(100);
  if (r < 40)
    return std::to_string(below(10));
  if (r < 60)
    // Negative, or for an unsigned type as many values from 100.
    return (isUnsigned(dt) ? "1" : "-") + std::to_string(1 + below(99));
  if (r < 75) {
    // The type's edges (literals are int64s: u64's top half needs ~).
    static const char *const kEdges[][4] = {
        {}, // bool
        {"2147483647", "-2147483648", "-2147483647", "65536"},
        {"9223372036854775807", "-9223372036854775808", "4294967296",
         "-2147483649"},
        {},
        {},
        {},
        {}, // floats
        {"127", "-128", "-127", "64"},
        {"32767", "-32768", "-32767", "256"},
        {"255", "0", "254", "128"},
        {"65535", "0", "65534", "256"},
        {"4294967295", "0", "4294967294", "65536"},
        {"9223372036854775807", "0", "4294967296", "4294967295"},
        {},
        {}}; // f8e4m3, f8e5m2
    return kEdges[static_cast<int>(dt)][below(4)];
  }
  uint64_t bits = rng();
  switch (dt) {
  case DT::I8:
    return std::to_string(static_cast<int8_t>(bits));
  case DT::I16:
    return std::to_string(static_cast<int16_t>(bits));
  case DT::I32:
    return std::to_string(static_cast<int32_t>(bits));
  case DT::U8:
    return std::to_string(static_cast<uint8_t>(bits));
  case DT::U16:
    return std::to_string(static_cast<uint16_t>(bits));
  case DT::U32:
    return std::to_string(static_cast<uint32_t>(bits));
  case DT::U64:
    return std::to_string(bits >> 1);
  default:
    return std::to_string(static_cast<int64_t>(bits));
  }
}

/// A float literal whose magnitude is below 10^(maxExp+1), so that it stays
/// finite in a type whose largest value is above that.
std::string KernelGen::floatLiteral(int minExp, int maxExp) {
  uint64_t r = below(100);
  if (r < 6)
    return "inf";
  if (r < 10)
    return "-inf";
  if (r < 15)
    return "nan";
  if (r < 20)
    return chance(50) ? "0.0" : "-0.0";
  if (r < 27)
    return std::to_string(static_cast<int64_t>(below(20)) - 10); // an int
  if (r < 40) {
    static const char *const kForms[] = {"0.5",  "2.",    "0.1", "1.5E+2",
                                         "1e-3", "-0.25", "1.0", "3.0e-2"};
    return pick(kForms);
  }
  std::string text = chance(30) ? "-" : "";
  // Each choice in a statement of its own, in the order g++ made them
  // (right to left): the order in which one expression's operands or a
  // call's arguments are evaluated is the compiler's, and clang's differs.
  uint64_t fraction = below(1000), whole = 1 + below(9);
  text += std::to_string(whole) + "." + std::to_string(fraction);
  int exp = minExp + static_cast<int>(below(maxExp - minExp + 1));
  return text + "e" + std::to_string(exp);
}

/// A decimal at a tie between two neighbours of `dt` (f32, f16 or bf16),
/// or within 10^-28 of one (relative), above or below it in magnitude: a
/// literal whose nearest double (or f32, for f16 and bf16) is the tie
/// itself, so that a compiler or a reference that rounds it through a
/// double picks the wrong neighbour (issue 14). Now and then the tie is an
/// integer (f32 beyond 2^24) and the literal an integer one. The value is
/// finite in `dt` whichever way it rounds.
std::string KernelGen::tieLiteral(DT dt) {
  // Mantissa bits and the exponents of normal values whose next value up
  // is finite (f32's top few left out: a tie above 2^122 is out of range
  // for nothing, but keeps products of literals finite).
  unsigned bits = dt == DT::F16 ? 10 : dt == DT::BF16 ? 7 : 23;
  int minExp = dt == DT::F16 ? -14 : -126;
  int maxExp = dt == DT::F16 ? 15 : 122;
  bool integer = dt == DT::F32 && chance(20);
  if (integer)
    minExp = 25;
  if (integer)
    maxExp = 61; // below 2^62: the tie and its neighbours fit in 64 bits
  int exp = minExp + static_cast<int>(below(maxExp - minExp + 1));
  uint64_t mantissa = below(uint64_t(1) << bits);
  // The largest value's tie above it rounds to infinity.
  if (exp == maxExp && mantissa == (uint64_t(1) << bits) - 1)
    --mantissa;
  std::string sign = chance(30) ? "-" : "";
  // The tie itself (1 in 5), else just above or below it: those are the
  // literals that a double rounding gets wrong.
  unsigned side = below(5);
  side = side == 0 ? 0 : side <= 2 ? 1 : 2; // the tie, above it, below it
  if (integer) {
    // (2^bits + m + 1/2) * 2^(exp - bits), an integer for these exponents.
    uint64_t tie = ((uint64_t(2) << bits) + 2 * mantissa + 1)
                   << (exp - bits - 1);
    return sign + std::to_string(side == 0   ? tie
                                 : side == 1 ? tie + 1
                                             : tie - 1);
  }
  double tie = std::ldexp(double((uint64_t(2) << bits) + 2 * mantissa + 1),
                          exp - static_cast<int>(bits) - 1);
  // Every digit of the double (APFloat prints it exactly); a tie's last
  // digit is a 5, since its lowest bit is set.
  llvm::SmallString<128> digits;
  llvm::APFloat(tie).toString(digits, /*FormatPrecision=*/200,
                              /*FormatMaxPadding=*/0, /*TruncateZero=*/true);
  std::string text(digits.str());
  size_t e = text.find_first_of("eE");
  std::string mantissaText = text.substr(0, e);
  std::string exponentText = e == std::string::npos ? "" : text.substr(e);
  if (mantissaText.find('.') == std::string::npos)
    mantissaText += ".";
  if (side == 1)
    mantissaText += "0000000000000000000000000001";
  else if (side == 2 && mantissaText.back() == '5')
    mantissaText = mantissaText.substr(0, mantissaText.size() - 1) +
                   "4999999999999999999999999999";
  return sign + mantissaText + exponentText;
}

/// A literal that `dt`'s operations take: in range of the integer type, or
/// finite in the float's compute type (f32 for f16 and bf16). With `weak`,
/// sometimes an operation on literals instead (not in a default, which must
/// be one literal).
Expr KernelGen::literal(DT dt, bool weak) {
  if (weak && dt != DT::Bool && chance(8))
    return weakExpression(dt);
  std::string text;
  if (dt == DT::Bool)
    text = chance(50) ? "true" : "false";
  else if (isInt(dt))
    text = intLiteral(dt);
  else if (chance(15))
    // Next to a tie of the compute type (f32; f64 has no double rounding).
    text = tieLiteral(DT::F32);
  else if (dt == DT::F64)
    text = floatLiteral(-330, 307);
  else
    text = floatLiteral(-50, 37);
  return {text, text[0] == '-' ? Unary : Primary};
}

/// An operation on literals alone, which stays weak and takes `dt` from its
/// typed neighbour (docs/language.md, literal typing rule 2): small values,
/// so that the result fits any type. A division or a math function of
/// literals is always a float, so integers get only + - * and neg.
Expr KernelGen::weakExpression(DT dt) {
  auto small = [&] { return std::to_string(below(7)); };
  if (isInt(dt)) {
    static const char *const kOps[] = {" + ", " - ", " * "};
    if (chance(20))
      return {"-(" + small() + ")", Unary};
    std::string rhs = small(), op = pick(kOps), lhs = small();
    return {"(" + lhs + op + rhs + ")", Primary};
  }
  uint64_t r = below(100);
  if (r < 25) {
    static const char *const kMath[] = {"exp", "sqrt", "tanh", "erf"};
    std::string arg = small();
    return {std::string(pick(kMath)) + "(" + arg + ")", Primary};
  }
  static const char *const kOps[] = {" + ", " - ", " * ", " / "};
  std::string lhs = r < 60 ? small() : small() + ".5";
  std::string rhs = small();
  return {"(" + lhs + pick(kOps) + rhs + ")", Primary};
}

/// Sometimes a weak let that can take `dt` (its first use fixes it to dt, as
/// the front end does in source order, which is the order of generation
/// here), else a literal.
Expr KernelGen::weakLetOrLiteral(DT dt) {
  if (dt != DT::Bool && chance(30)) {
    std::vector<WeakLet *> usable;
    for (WeakLet &let : weakLets)
      if (let.fixed ? *let.fixed == dt : isAnyFloat(dt) || !let.isFloat)
        usable.push_back(&let);
    if (!usable.empty()) {
      WeakLet *let = usable[below(usable.size())];
      let->fixed = dt;
      return {let->name, Primary};
    }
  }
  return literal(dt);
}

/// A default, which must fit the parameter's own type (f16 up to 65504,
/// f8e4m3 up to 448, f8e5m2 up to 57344) and is rounded to that type (so
/// next to ties of f16 and bf16 too).
std::string KernelGen::defaultLiteral(DT dt) {
  if (dt == DT::F8E4M3)
    return floatLiteral(-4, 1);
  if (dt == DT::F8E5M2)
    return floatLiteral(-6, 3);
  if (isAnyFloat(dt) && chance(10))
    return tieLiteral(dt == DT::F64 ? DT::F32 : dt);
  if (dt == DT::F16)
    return floatLiteral(-10, 3);
  return literal(dt, /*weak=*/false).text;
}

//===----------------------------------------------------------------------===//
// Leaves and operands
//===----------------------------------------------------------------------===//

/// Now and then `index(d)` for a type over one named dimension d, or
/// `size(d)` for a scalar, cast to the type's element type unless i64 (the
/// cast of a coordinate or an extent, at most a few hundred here, is exact
/// in every type).
std::optional<Expr> KernelGen::dimLeaf(Type type) {
  DimSet named = kernelDims & ~kBatchBit;
  bool oneDim =
      type.dims && !(type.dims & (type.dims - 1)) && type.dims != kBatchBit;
  bool isI64 = type.dt == DT::I64;
  Expr dim;
  if (oneDim && chance(isI64 ? 25 : 6)) {
    dimsNamed |= type.dims;
    dim = call("index", {{programDims.names[pickDim(type.dims)], Primary}});
  } else if (!type.dims && named && chance(isI64 ? 15 : 4)) {
    unsigned bit = pickDim(named);
    dimsNamed |= DimSet(1) << bit;
    dim = call("size", {{programDims.names[bit], Primary}});
  } else {
    return std::nullopt;
  }
  return isI64 ? dim : call(getName(type.dt), {dim});
}

Expr KernelGen::leaf(Type type) {
  if (std::optional<Expr> dim = dimLeaf(type))
    return *dim;
  std::vector<const Named *> found;
  for (const std::vector<Named> *names : {&params, &lets})
    for (const Named &named : *names)
      if (named.type.dt == type.dt && named.type.dims == type.dims)
        found.push_back(&named);
  if (!found.empty() && (params.size() >= 2 + size || chance(75)))
    return {found[below(found.size())]->name, Primary};
  Named param{"p" + std::to_string(params.size()), type, "", ""};
  if (type.isTensor())
    param.dimsText = formatDims(type.dims);
  else if (chance(50))
    param.defaultText = defaultLiteral(type.dt);
  params.push_back(param);
  return {param.name, Primary};
}

/// A scalar type that an operation of element type `dt` accepts beside its
/// anchor: beside a tensor, any of the same kind; among scalars, one that
/// promotes to dt.
DT KernelGen::compatibleScalar(DT dt, bool besideTensor) {
  if (besideTensor)
    return isAnyFloat(dt) ? pick(kFloatTypes)
           : isInt(dt)    ? pick(kIntTypes)
                          : DT::Bool;
  // torch.promote_types: a signed type takes the narrower signed ones and
  // u8; u16, u32 and u64 promote with no other integer type.
  switch (dt) {
  case DT::F32: {
    static const DT kNarrower[] = {DT::F16, DT::BF16, DT::F32};
    return pick(kNarrower);
  }
  case DT::F64:
    return pick(kWideFloatTypes);
  case DT::I64: {
    static const DT kNarrower[] = {DT::I8, DT::I16, DT::I32, DT::I64, DT::U8};
    return pick(kNarrower);
  }
  case DT::I32: {
    static const DT kNarrower[] = {DT::I8, DT::I16, DT::I32, DT::U8};
    return pick(kNarrower);
  }
  case DT::I16: {
    static const DT kNarrower[] = {DT::I8, DT::I16, DT::U8};
    return pick(kNarrower);
  }
  default:
    return dt;
  }
}

/// `count` operands of an operation whose result is `type`: one anchor of
/// its element type, the others of that element type, compatible scalars,
/// or (if `literals`) literals. Each has a subset of type.dims, and together
/// with `covered` (the dimensions of a where's condition) they have them
/// all: what the others leave out, the anchor takes. The anchor is a tensor
/// whenever the operands hold one (it decides what the scalars beside it
/// may be); under a condition that has every dimension, a where's values
/// may be scalars alone.
std::vector<Expr> KernelGen::operands(Type type, unsigned count, int depth,
                                      bool literals, DimSet covered) {
  enum class Kind { Anchor, Literal, Other };
  struct Planned {
    Kind kind;
    Type type;
  };
  DimSet missing = type.dims & ~covered;
  bool tensors = missing || (type.dims && chance(50));
  std::vector<Planned> plan(count);
  unsigned anchor = below(count);
  for (unsigned i = 0; i < count; ++i) {
    uint64_t r = below(100);
    if (i == anchor)
      plan[i] = {Kind::Anchor,
                 {type.dt, tensors ? nonEmptySubsetOf(type.dims) : 0}};
    else if (literals && r < 25)
      plan[i] = {Kind::Literal, {type.dt, 0}};
    else if (r < 45)
      plan[i] = {Kind::Other, {compatibleScalar(type.dt, tensors), 0}};
    else
      plan[i] = {Kind::Other,
                 {type.dt, tensors && chance(60) ? subsetOf(type.dims) : 0}};
    missing &= ~plan[i].type.dims;
  }
  plan[anchor].type.dims |= missing;
  std::vector<Expr> result(count);
  for (unsigned i = 0; i < count; ++i)
    // Beside the anchor, a weak let takes type.dt. With three operands
    // (clamp) a literal may meet the other one first and take its type.
    result[i] = plan[i].kind != Kind::Literal ? gen(plan[i].type, depth)
                : count == 2                  ? weakLetOrLiteral(type.dt)
                                              : literal(type.dt);
  return result;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Expr KernelGen::gen(Type type, int depth) {
  if (depth <= 0 || chance(15))
    return leaf(type);
  uint64_t r = below(100);
  if (r < 8)
    return genWhere(type, depth);
  if (r < 16)
    return genCast(type, depth);
  // Drawn only with --reductions, so that the programs of a seed without it
  // stay the same.
  if (reductions && r < 24)
    if (std::optional<Expr> combined = genCombine(type, depth))
      return *combined;
  // Likewise with --random: an f32 is now and then rand or randn, an i32
  // randint.
  if (random && (type.dt == DT::F32 || type.dt == DT::I32) && r >= 24 && r < 40)
    return genRandom(type, depth);
  return type.dt == DT::Bool ? genBool(type, depth) : genNumber(type, depth);
}

/// rand or randn (f32) or randint (i32) over `type`'s dimensions: a seed of
/// any integer type, mostly a scalar (a parameter, a literal, negative or
/// past 2^32 now and then), and an offset that has every dimension of the
/// type: a position (index(d), index_flat(), the row-major position of two
/// dimensions) or any integer expression (values anywhere in its type's
/// range, with --inputs special).
Expr KernelGen::genRandom(Type type, int depth) {
  const char *fn = type.dt == DT::I32 ? "randint"
                   : chance(60)       ? "rand"
                                      : "randn";
  Expr seed;
  if (chance(35)) {
    static const char *const kSeeds[] = {"0", "42", "-(7)", "4294967301",
                                         "123456789"};
    seed = {pick(kSeeds), Primary};
  } else {
    DT dt = pick(kIntTypes);
    seed = gen({dt, chance(80) ? 0 : subsetOf(type.dims)}, depth - 1);
  }
  DimSet named = type.dims & ~kBatchBit;
  Expr offset;
  uint64_t r = below(100);
  if ((type.dims & kBatchBit) && !reductions && r < 60) {
    // The batch's position, plus an i64 over the named dimensions if any
    // (index_flat() * size(n) + index(n) now and then: the position in
    // [..., n]).
    dimsNamed |= kBatchBit;
    offset = call("index_flat", {});
    if (llvm::popcount(named) == 1 && chance(50)) {
      const std::string &n = programDims.names[pickDim(named)];
      dimsNamed |= named;
      offset = infix(infix(offset, "*", Mul, call("size", {{n, Primary}})), "+",
                     Add, call("index", {{n, Primary}}));
    } else if (named) {
      offset = infix(offset, "+", Add, gen({DT::I64, named}, depth - 1));
    }
  } else if (type.dims && llvm::popcount(type.dims) == 1 && named && r < 50) {
    dimsNamed |= type.dims;
    offset = call("index", {{programDims.names[pickDim(type.dims)], Primary}});
  } else if (llvm::popcount(named) == 2 && type.dims == named && r < 40) {
    unsigned a = pickDim(named);
    unsigned b = pickDim(named & ~(DimSet(1) << a));
    dimsNamed |= named;
    const std::string &ma = programDims.names[a], &mb = programDims.names[b];
    offset = infix(infix(call("index", {{ma, Primary}}), "*", Mul,
                         call("size", {{mb, Primary}})),
                   "+", Add, call("index", {{mb, Primary}}));
  } else {
    offset = gen({pick(kIntTypes), type.dims}, depth - 1);
  }
  return call(fn, {seed, offset});
}

/// A reduction over a named dimension the value lacks (its operand has it),
/// now and then over two, or a scan along one it has: of the functions that
/// take `type`'s element type. None where no dimension fits.
std::optional<Expr> KernelGen::genCombine(Type type, int depth) {
  DimSet named = kernelDims & ~kBatchBit;
  DimSet absent = named & ~type.dims, present = named & type.dims;
  bool isBool = type.dt == DT::Bool;
  bool scan = !isBool && present && (!absent || chance(30));
  if (!scan && !absent)
    return std::nullopt;
  auto dimName = [&](unsigned bit) -> Expr {
    return {programDims.names[bit], Primary};
  };
  if (scan) {
    static const char *const kScans[] = {"cumsum", "cummax", "cummin"};
    unsigned bit = pickDim(present);
    Expr operand = gen(type, depth - 1);
    return call(pick(kScans), {operand, dimName(bit)});
  }
  unsigned bit = pickDim(absent);
  DimSet reduced = DimSet(1) << bit;
  std::vector<unsigned> bits{bit};
  DimSet more = absent & ~reduced;
  if (more && chance(20)) {
    bits.push_back(pickDim(more));
    reduced |= DimSet(1) << bits.back();
  }
  dimsNamed |= reduced;
  // Now and then a max and a sum of exponentials it scales, as softmax and
  // attention write them (`sum(exp(a - amax(a, d)) * w, d)`: an online
  // group, CombineLoops.cpp), which the GPU's long rows combine in one pass.
  // Twice as often where the result has a dimension that attention's form
  // can keep (under 1% of the programs reached that schedule at 15%).
  DimSet points = present & ~reduced;
  if (isAnyFloat(type.dt) &&
      ((forceAttention && points) || chance(points ? 30 : 15))) {
    Type operandType{type.dt, type.dims | reduced};
    // Now and then as attention writes it: `a` a reduction over a
    // dimension of the result that the weight keeps (its scores, `sum(q *
    // k, d)` in `sum(exp(a - amax(a, s)) * v, s)`), which the GPU computes
    // once for the row's points (the rows schedule's points on the lanes).
    bool attention = points && (forceAttention || chance(60));
    Expr a = gen(operandType, depth - 1);
    if (attention) {
      unsigned point = pickDim(points);
      dimsNamed |= DimSet(1) << point;
      a = call("sum", {a, dimName(point)});
    }
    std::vector<Expr> maxArgs{a};
    for (unsigned b : bits)
      maxArgs.push_back(dimName(b));
    Expr shifted = infix(a, "-", Add, call("amax", maxArgs));
    Expr term = call("exp", {shifted});
    if (attention || chance(50)) {
      Expr w = gen(operandType, depth - 1);
      term = infix(term, "*", Mul, w);
    }
    std::vector<Expr> sumArgs{term};
    for (unsigned b : bits)
      sumArgs.push_back(dimName(b));
    return call("sum", sumArgs);
  }
  const char *fn;
  if (isBool) {
    fn = chance(50) ? "any" : "all";
  } else {
    static const char *const kNumbers[] = {"sum", "amax", "amin", "sum"};
    fn = isAnyFloat(type.dt) && chance(20) ? "mean" : pick(kNumbers);
  }
  Expr operand = gen({type.dt, type.dims | reduced}, depth - 1);
  std::vector<Expr> args{operand};
  for (unsigned b : bits)
    args.push_back(dimName(b));
  return call(fn, args);
}

Expr KernelGen::genWhere(Type type, int depth) {
  // The condition's dimensions are the result's as much as the values'.
  DimSet condDims =
      type.isTensor() && chance(50) ? nonEmptySubsetOf(type.dims) : 0;
  Expr cond = gen({DT::Bool, condDims}, depth - 1);
  std::vector<Expr> args = operands(type, 2, depth - 1, true, condDims);
  return call("where", {cond, args[0], args[1]});
}

Expr KernelGen::genCast(Type type, int depth) {
  // Now and then a literal argument, which takes the cast's type where it
  // can (`f64(0.1)`), else the default (`i32(2.5)` truncates an f32).
  if (!type.isTensor() && chance(10)) {
    Expr arg = literal(type.dt == DT::Bool ? DT::I32 : type.dt);
    return call(getName(type.dt), {arg});
  }
  // Now and then a bitcast from another type of the same width: the bits of
  // floats (NaN, -0.0, subnormals) read as integers and back.
  if (type.dt != DT::Bool && chance(15)) {
    std::vector<DT> sameWidth;
    for (DT dt : kAllTypes)
      if (dt != DT::Bool && dt != type.dt && getWidth(dt) == getWidth(type.dt))
        sameWidth.push_back(dt);
    DT from = sameWidth[below(sameWidth.size())];
    Expr value = gen({from, type.dims}, depth - 1);
    return call("bitcast", {value, {getName(type.dt), Primary}});
  }
  return call(getName(type.dt), {gen({pick(kAllTypes), type.dims}, depth - 1)});
}

Expr KernelGen::genBool(Type type, int depth) {
  uint64_t r = below(100);
  if (r < 25) {
    std::vector<Expr> args = operands(type, 2, depth - 1, true);
    bool isAnd = chance(50);
    if (chance(70))
      return infix(args[0], isAnd ? "&&" : "||", isAnd ? And : Or, args[1]);
    return call(isAnd ? "and" : "or", args);
  }
  if (r < 35) {
    Expr operand = gen(type, depth - 1);
    return chance(70) ? prefix("!", operand) : call("not", {operand});
  }
  if (r < 42) {
    // Classification of a number of any type: NaN, infinities and the
    // overflows of float math are what it sees.
    static const char *const kClassify[] = {"isnan", "isinf", "isfinite"};
    DT dt = pick(kAllTypes);
    if (dt == DT::Bool)
      dt = DT::F32;
    // Drawn in sequence: the order in which a call's arguments are evaluated
    // is the compiler's (GCC and Clang differ), the generator's must not be.
    Expr operand = gen({dt, type.dims}, depth - 1);
    return call(pick(kClassify), {operand});
  }
  // A comparison of any element type; bools only compare for equality.
  DT dt = pick(kAllTypes);
  std::vector<Expr> args = operands({dt, type.dims}, 2, depth - 1, true);
  static const char *const kPreds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  static const char *const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
  unsigned p = below(dt == DT::Bool ? 2 : 6);
  if (chance(70))
    return infix(args[0], kOps[p], Cmp, args[1]);
  return call("cmp", {{kPreds[p], Primary}, args[0], args[1]});
}

Expr KernelGen::genNumber(Type type, int depth) {
  if (isInt(type.dt) && chance(10)) {
    // Bitwise operations of integers; a shift's amount is often a literal
    // up to 69, past i32's and i64's widths (torch's rule: 0, or the sign).
    static const char *const kBitFns[] = {"bitwise_and", "bitwise_or",
                                          "bitwise_xor", "bitwise_left_shift",
                                          "bitwise_right_shift"};
    static const char *const kBitOps[] = {"&", "|", "^", "<<", ">>"};
    static const int kBitLevels[] = {BitAnd, BitOr, BitXor, Shift, Shift};
    unsigned k = below(6);
    if (k == 5) {
      Expr operand = gen(type, depth - 1);
      return chance(70) ? prefix("~", operand) : call("bitwise_not", {operand});
    }
    std::vector<Expr> args;
    if (k >= 3 && chance(60)) {
      Expr value = gen(type, depth - 1);
      args = {value, {std::to_string(below(70)), Primary}};
    } else {
      args = operands(type, 2, depth - 1, true);
    }
    if (chance(70))
      return infix(args[0], kBitOps[k], kBitLevels[k], args[1]);
    return call(kBitFns[k], args);
  }
  uint64_t r = below(100);
  if (r < 45) {
    // One in nine a remainder: `%` (torch.remainder) or fmod.
    static const char *const kFns[] = {"add", "sub", "mul", "div", "remainder"};
    static const char *const kOps[] = {"+", "-", "*", "/", "%"};
    if (chance(11)) {
      std::vector<Expr> args = operands(type, 2, depth - 1, true);
      if (chance(50))
        return call("fmod", args);
      return chance(75) ? infix(args[0], "%", Mul, args[1])
                        : call("remainder", args);
    }
    unsigned op = below(4);
    std::vector<Expr> args = operands(type, 2, depth - 1, true);
    if (chance(75))
      return infix(args[0], kOps[op], op < 2 ? Add : Mul, args[1]);
    return call(kFns[op], args);
  }
  if (r < 55) {
    Expr operand = gen(type, depth - 1);
    return chance(60) ? prefix("-", operand) : call("neg", {operand});
  }
  if (r < 60) {
    // Rounding a float that is often near .5 or an integer: an exact
    // operation after an inexact one is where a verdict's slack must hold.
    static const char *const kRounding[] = {"floor", "ceil", "trunc", "round"};
    if (chance(50)) {
      Expr operand = gen(type, depth - 1);
      return call(pick(kRounding), {operand});
    }
    if (chance(25))
      return call("sign", {gen(type, depth - 1)});
    return call("abs", {gen(type, depth - 1)});
  }
  if (r < 70) {
    std::vector<Expr> args = operands(type, 2, depth - 1, true);
    return call(chance(50) ? "max" : "min", args);
  }
  if (r < 75)
    return call("clamp", operands(type, 3, depth - 1, true));
  if (isAnyFloat(type.dt)) {
    if (chance(15)) {
      // pow's exponent is now and then a literal that the lowering turns
      // into one exact step (0, 1, 2, -1) or not (3, 0.5, -2).
      static const char *const kExponents[] = {"0.0", "1.0", "2.0", "-1.0",
                                               "3.0", "0.5", "-2.0"};
      if (chance(30)) {
        Expr base = gen(type, depth - 1);
        std::string exponent = pick(kExponents);
        return call("pow",
                    {base, {exponent, exponent[0] == '-' ? Unary : Primary}});
      }
      if (chance(20))
        return call("fma", operands(type, 3, depth - 1, true));
      std::vector<Expr> args = operands(type, 2, depth - 1, true);
      return call(chance(50) ? "atan2" : "pow", args);
    }
    static const char *const kMath[] = {
        "exp",  "log",   "sqrt", "rsqrt", "tanh",  "sigmoid", "erf",   "erfc",
        "exp2", "expm1", "log2", "log10", "log1p", "sin",     "cos",   "tan",
        "asin", "acos",  "atan", "sinh",  "cosh",  "asinh",   "acosh", "atanh"};
    Expr arg = gen(type, depth - 1);
    return call(pick(kMath), {arg});
  }
  return call("add", operands(type, 2, depth - 1, true));
}

//===----------------------------------------------------------------------===//
// Kernels and programs
//===----------------------------------------------------------------------===//

std::string KernelGen::generate(const std::string &name) {
  // The kernel's dimensions: mostly all of the program's, now and then the
  // batch alone (`f32[...]`, a tensor of any rank).
  DimSet named = (DimSet(1) << programDims.names.size()) - 1;
  DimSet batch = programDims.batch ? kBatchBit : 0;
  if (batch && chance(10)) {
    kernelDims = batch;
  } else {
    kernelDims = chance(70) ? named : nonEmptySubsetOf(named);
    if (batch && chance(70))
      kernelDims |= batch;
  }
  int depth = 1 + static_cast<int>(size / 2 + below(2));
  // With --reductions, now and then a kernel of decode attention's shape
  // alone: no let, one float result whose value is attention's form over
  // one named dimension, keeping the others (the GPU's points on the lanes,
  // and for few rows its rows split across blocks: a nest whose reductions
  // are one online group's). Otherwise 1 program in 400 reached that split
  // (seed 7304), the attention form being one combine among others.
  DimSet namedDims = kernelDims & ~kBatchBit;
  bool attentionKernel =
      reductions && llvm::popcount(namedDims) >= 3 && chance(8);
  std::string body;
  unsigned numLets = attentionKernel ? 0 : below(size + 1);
  for (unsigned i = 0; i < numLets; ++i) {
    std::string letName = "v" + std::to_string(i);
    if (chance(20)) {
      // A weak let: small literals, so that any type they take holds them.
      // No negative literal: an unsigned type takes none (-(4) wraps).
      static const char *const kInts[] = {"3", "-(4)", "(2 * 3)", "0"};
      static const char *const kFloats[] = {"2.5", "(1 / 4)", "-0.5", "exp(1)",
                                            "1e-3"};
      bool isFloatLet = chance(60);
      body += "  let " + letName + " = " +
              (isFloatLet ? pick(kFloats) : pick(kInts)) + ";\n";
      weakLets.push_back({letName, isFloatLet, std::nullopt});
      continue;
    }
    DT dt = pick(kAllTypes);
    Type type{dt, chance(75) ? nonEmptySubsetOf(kernelDims) : 0};
    Expr value = gen(type, depth);
    body += "  let " + letName + " = " + value.text + ";\n";
    lets.push_back({letName, type, "", ""});
  }
  unsigned numResults =
      attentionKernel ? 1 : 1 + below(1 + std::min(3u, size / 3));
  std::vector<Type> results;
  std::string ret;
  if (attentionKernel) {
    DT dt = pick(kFloatTypes);
    DimSet declared = kernelDims & ~(DimSet(1) << pickDim(namedDims));
    forceAttention = true;
    std::optional<Expr> value = genCombine({dt, declared}, depth);
    forceAttention = false;
    results.push_back({dt, declared});
    ret = value ? value->text : gen({dt, declared}, depth).text;
    numResults = 0;
  }
  for (unsigned i = 0; i < numResults; ++i) {
    // A result's value has its dimensions, or some (it is the same along
    // the others), or none: a scalar, now and then a weak literal, which
    // takes the result's type (a fill).
    DT dt = pick(kAllTypes);
    DimSet declared = nonEmptySubsetOf(kernelDims);
    uint64_t r = below(100);
    DimSet valueDims = r < 75 ? declared : r < 88 ? 0 : subsetOf(declared);
    Expr value =
        !valueDims && chance(20) ? literal(dt) : gen({dt, valueDims}, depth);
    results.push_back({dt, declared});
    ret += (i ? ", " : "") + value.text;
  }
  // An index or size may name a dimension that no type has (a let's); the
  // first result takes it, as a dimension its value lacks.
  DimSet typed = 0;
  for (const Named &param : params)
    typed |= param.type.dims;
  for (const Type &result : results)
    typed |= result.dims;
  results[0].dims |= dimsNamed & ~typed;

  std::string text = "kernel " + name + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    const Named &param = params[i];
    text += (i ? ", " : "") + param.name + ": " + getName(param.type.dt) +
            param.dimsText;
    if (!param.defaultText.empty())
      text += " = " + param.defaultText;
  }
  text += ") -> ";
  if (numResults > 1)
    text += "(";
  for (size_t i = 0; i < results.size(); ++i) {
    std::string dims = formatDims(results[i].dims);
    text += (i ? ", " : "") + std::string(getName(results[i].dt)) + dims;
  }
  if (numResults > 1)
    text += ")";
  return text + " {\n" + body + "  return " + ret + ";\n}\n";
}

} // namespace

uint64_t ewc::fuzz::deriveProgramSeed(uint64_t seed, uint64_t index) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Kernel names that a compiler could confuse with what its code links or
/// declares (issue 14: a kernel `exp` bound libm's exp to itself on the CPU):
/// the builtins, libm and the C library, ewc's soft-float helpers, MLIR's
/// ExecutionEngine wrappers, libdevice, C++ keywords and CUDA's names (the
/// exported header), and the Python package's own (ewc.compile, Module).
static const char *const kRiskyKernelNames[] = {"exp",
                                                "log",
                                                "sqrt",
                                                "rsqrt",
                                                "tanh",
                                                "sigmoid",
                                                "erf",
                                                "erfc",
                                                "exp2",
                                                "expm1",
                                                "log2",
                                                "log10",
                                                "log1p",
                                                "sin",
                                                "cos",
                                                "tan",
                                                "asin",
                                                "acos",
                                                "atan",
                                                "atan2",
                                                "sinh",
                                                "cosh",
                                                "asinh",
                                                "acosh",
                                                "atanh",
                                                "pow",
                                                "fma",
                                                "fmaf",
                                                "fmod",
                                                "fmodf",
                                                "remainder",
                                                "remainderf",
                                                "sign",
                                                "bitwise_and",
                                                "bitwise_not",
                                                "shl",
                                                "powf",
                                                "sinf",
                                                "expm1f",
                                                "log1pf",
                                                "abs",
                                                "floor",
                                                "ceil",
                                                "trunc",
                                                "round",
                                                "isnan",
                                                "isinf",
                                                "isfinite",
                                                "rintf",
                                                "roundeven",
                                                "max",
                                                "min",
                                                "clamp",
                                                "where",
                                                "cmp",
                                                "add",
                                                "and",
                                                "not",
                                                "f32",
                                                "bf16",
                                                "bool",
                                                "expf",
                                                "logf",
                                                "tanhf",
                                                "erff",
                                                "sqrtf",
                                                "fabs",
                                                "memcpy",
                                                "memset",
                                                "malloc",
                                                "free",
                                                "abort",
                                                "__truncsfbf2",
                                                "__truncdfbf2",
                                                "__extendhfsf2",
                                                "__truncsfhf2",
                                                "__truncdfhf2",
                                                "__gnu_h2f_ieee",
                                                "_mlir_k0",
                                                "_mlir__mlir_k0",
                                                "_mlir_ciface_k0",
                                                "__nv_expf",
                                                "__nv_exp",
                                                "__nv_logf",
                                                "__nv_erff",
                                                "__nv_floorf",
                                                "__nv_rintf",
                                                "int",
                                                "class",
                                                "namespace",
                                                "cuLaunchKernel",
                                                "cuModuleLoadData",
                                                "CUresult",
                                                "detail",
                                                "getLoadedImage",
                                                "compile",
                                                "kernels",
                                                "device",
                                                "__call__",
                                                "__init__"};

ProgramDims ewc::fuzz::chooseProgramDims(uint64_t seed) {
  // A stream apart from the text's: the shape of a run (Shapes.cpp) draws
  // from the seed without generating the program.
  std::mt19937_64 rng(deriveProgramSeed(seed, 0xd1a5));
  auto below = [&](uint64_t n) { return rng() % n; };
  std::vector<std::string> pool = {"m", "n", "k", "d"};
  for (size_t i = pool.size(); i > 1; --i)
    std::swap(pool[i - 1], pool[below(i)]);
  uint64_t r = below(100);
  size_t count = r < 20 ? 1 : r < 55 ? 2 : r < 85 ? 3 : 4;
  ProgramDims dims;
  for (size_t i = 0; i < count; ++i) {
    // Now and then a name that is also a parameter's, a let's, a kernel's, a
    // builtin's or a dtype's: dimensions live in a namespace of their own
    // (index(index), f32[f32]).
    static const char *const kOddNames[] = {"len", "rows",  "p0",    "v1",
                                            "k0",  "exp",   "index", "size",
                                            "f32", "where", "N",     "x_1"};
    std::string name = pool[i];
    if (below(100) < 8) {
      std::string odd = kOddNames[below(std::size(kOddNames))];
      if (!llvm::is_contained(dims.names, odd))
        name = odd;
    }
    dims.names.push_back(name);
  }
  dims.batch = below(100) < 25;
  return dims;
}

std::string ewc::fuzz::generateProgram(uint64_t seed,
                                       const GeneratorOptions &options) {
  ProgramDims dims = chooseProgramDims(seed);
  std::mt19937_64 rng(seed);
  unsigned size = std::max(1u, options.size);
  unsigned numKernels = 1 + rng() % (1 + size / 4);
  std::string text;
  std::vector<std::string> names;
  for (unsigned k = 0; k < numKernels; ++k) {
    // Now and then a risky name, each once per file (no risky name is a
    // k<i>; k0 and _mlir_k0 may well meet).
    std::string name = "k" + std::to_string(k);
    if (rng() % 100 < 25) {
      std::string risky =
          kRiskyKernelNames[rng() % std::size(kRiskyKernelNames)];
      if (!llvm::is_contained(names, risky))
        name = risky;
    }
    names.push_back(name);
    KernelGen kernel(rng, size, dims, options);
    text += (k ? "\n" : "") + kernel.generate(name);
  }
  return text;
}

GenericProgram ewc::fuzz::makeGeneric(const std::string &text, uint64_t seed) {
  // A stream of its own: the program's text stays what --generic-less runs
  // make of the seed.
  std::mt19937_64 rng(deriveProgramSeed(seed, 0x6e6e));
  auto below = [&](uint64_t n) { return rng() % n; };
  static const char *const kFloats[] = {"f16", "bf16", "f32", "f64"};
  static const char *const kInts[] = {"i32", "i64"};
  // A dimension named like a dtype would be renamed with it, away from the
  // shape the run gives it by name.
  for (const std::string &dim : chooseProgramDims(seed).names)
    if (parseDTypeName(dim))
      return {text, ""};
  GenericProgram result;
  llvm::StringRef rest = text;
  unsigned index = 0;
  while (!rest.empty()) {
    // One kernel: from its `kernel` to the next one's (each is its own
    // paragraph).
    size_t next = rest.find("\nkernel ", 1);
    llvm::StringRef kernel = rest.take_front(next);
    rest = rest.drop_front(kernel.size());
    // The identifier tokens, with their offsets (numbers skipped whole).
    struct Token {
      size_t begin;
      llvm::StringRef text;
    };
    std::vector<Token> tokens;
    for (size_t i = 0; i < kernel.size();) {
      char c = kernel[i];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
          std::isdigit(static_cast<unsigned char>(c))) {
        size_t j = i;
        while (j < kernel.size() &&
               (std::isalnum(static_cast<unsigned char>(kernel[j])) ||
                kernel[j] == '_' || kernel[j] == '.'))
          ++j;
        if (!std::isdigit(static_cast<unsigned char>(c)))
          tokens.push_back({i, kernel.slice(i, j)});
        i = j;
        continue;
      }
      ++i;
    }
    std::string param = "T" + std::to_string(index);
    llvm::StringRef signature = kernel.take_front(kernel.find('{'));
    llvm::SmallVector<llvm::StringRef> candidates;
    for (const Token &token : tokens)
      if (token.begin < signature.size() &&
          (llvm::is_contained(kFloats, token.text) ||
           llvm::is_contained(kInts, token.text)) &&
          !llvm::is_contained(candidates, token.text))
        candidates.push_back(token.text);
    bool clash = llvm::any_of(
        tokens, [&](const Token &token) { return token.text == param; });
    // The kernel's name is its second token.
    if (candidates.empty() || clash ||
        llvm::is_contained(candidates, tokens[1].text)) {
      result.text += kernel.str();
      continue;
    }
    llvm::StringRef type = candidates[below(candidates.size())];
    bool isFloat = llvm::is_contained(kFloats, type);
    std::string generic;
    size_t copied = 0;
    for (const Token &token : tokens) {
      if (token.text != type)
        continue;
      generic += kernel.slice(copied, token.begin).str() + param;
      copied = token.begin + token.text.size();
    }
    generic += kernel.drop_front(copied).str();
    // `kernel NAME<Ti: float>(`: after the name.
    size_t name = tokens[1].begin + tokens[1].text.size();
    generic.insert(name, "<" + param + (isFloat ? ": float>" : ": int>"));
    result.text += generic;
    const char *bound =
        isFloat ? kFloats[below(std::size(kFloats))] : kInts[below(2)];
    result.binding += (result.binding.empty() ? "" : ",") + param + "=" + bound;
    ++index;
  }
  return result;
}
