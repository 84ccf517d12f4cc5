//===- PtxasWorkarounds.cpp - PTX that ptxas 13.0 gets right --------------===//
//
// Part of the ewc project.
//
//===----------------------------------------------------------------------===//
//
// A rewrite of the PTX text that NVPTX prints, one instruction per line, for
// the miscompiles of docs/ptxas-bug/README.md. The rewrites work on
// text because the PTX is where the trouble is: LLVM turns every other form
// of these computations back into the same instructions (InstCombine makes
// llvm.abs of the xor/sub idiom and a float select of a select of bitcasts),
// and NVPTX prints them as the instructions ptxas mistreats.
//
// NVPTX prints an instruction as "\t[@guard ]<opcode> \t<operands>;" with
// its operands separated by ", ". A predicated instruction (`@%p1 abs.s64`,
// `@!%p1 ...`) is rewritten like any other, each instruction of its
// replacement under the same guard. Lines of another shape (directives,
// labels) are left as they are.
//
//===----------------------------------------------------------------------===//

#include "ewc/Conversion/GPUToPTX/PtxasWorkarounds.h"
#include "ewc/Conversion/StageCheck.h"

#include "ewc/Conversion/GPUToPTX/GPUToPTX.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace ew {
#define GEN_PASS_DEF_PTXASWORKAROUNDS
#include "ewc/Conversion/Passes.h.inc"
} // namespace ew
} // namespace mlir

using namespace mlir;
using namespace mlir::ew;

static constexpr std::pair<llvm::StringLiteral, unsigned> kNames[] = {
    {"int-abs", kIntAbs},           {"float-abs", kFloatAbs},
    {"float-select", kFloatSelect}, {"int-minmax", kIntMinMax},
    {"int-neg", kIntNeg},           {"wide-store", kWideStore},
    {"narrow-store", kNarrowStore}};

llvm::Expected<unsigned> mlir::ew::parsePtxasWorkarounds(llvm::StringRef list) {
  list = list.trim();
  if (list == "all")
    return kAllPtxasWorkarounds;
  unsigned set = 0;
  if (list == "none")
    return set;
  llvm::SmallVector<llvm::StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names) {
    name = name.trim();
    const auto *known = llvm::find_if(
        kNames, [&](const auto &entry) { return entry.first == name; });
    if (known == std::end(kNames))
      return llvm::createStringError(
          "unknown ptxas workaround '" + name +
          "' (expected all, none, or a comma-separated list of int-abs, "
          "float-abs, float-select, int-minmax, int-neg, wide-store and "
          "narrow-store)");
    set |= known->second;
  }
  return set;
}

/// The width of a PTX type suffix such as "s64", "u16" or "f32", or 0.
static unsigned getWidth(llvm::StringRef type) {
  unsigned width = 0;
  if (type.size() < 2 || type.drop_front().getAsInteger(10, width))
    return 0;
  return width;
}

/// A float immediate of selp.f32/f64 (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX) as
/// the integer with its bits, which selp.b32/b64 takes; registers as they
/// are.
static std::string asBits(llvm::StringRef operand) {
  if (operand.starts_with("0f") || operand.starts_with("0d"))
    return ("0x" + operand.drop_front(2)).str();
  return operand.str();
}

namespace {
/// One instruction line: "<indent>[<guard> ]<opcode> <operands>;".
struct Instruction {
  llvm::StringRef indent, opcode;
  /// The predicate guard with a trailing space ("@%p1 ", "@!%p2 "), or empty.
  std::string guard;
  llvm::SmallVector<llvm::StringRef, 4> operands;
};
} // namespace

static std::optional<Instruction> parseInstruction(llvm::StringRef line) {
  Instruction inst;
  llvm::StringRef body = line.ltrim(" \t");
  inst.indent = line.take_front(line.size() - body.size());
  body = body.rtrim(" \t\r");
  if (body.empty() || !body.consume_back(";") || body.starts_with(".") ||
      body.starts_with("//"))
    return std::nullopt;
  if (body.starts_with("@")) {
    size_t end = body.find_first_of(" \t");
    if (end == llvm::StringRef::npos)
      return std::nullopt;
    inst.guard = (body.take_front(end) + " ").str();
    body = body.drop_front(end).ltrim(" \t");
  }
  auto [opcode, rest] = body.split(' ');
  inst.opcode = opcode.rtrim("\t");
  llvm::SmallVector<llvm::StringRef, 4> operands;
  rest.split(operands, ',');
  for (llvm::StringRef operand : operands)
    inst.operands.push_back(operand.trim(" \t"));
  return inst;
}

/// The replacement of one instruction, or nothing to keep it.
static std::optional<std::string> rewrite(const Instruction &inst,
                                          unsigned workarounds) {
  auto [name, type] = inst.opcode.split('.');
  unsigned width = getWidth(type);
  const auto &ops = inst.operands;
  std::string out;
  llvm::raw_string_ostream os(out);
  // Each instruction of a replacement starts with `in` (indent and guard);
  // braces and .reg declarations, which take no guard, with `indent`.
  llvm::StringRef indent = inst.indent;
  std::string in = (indent + inst.guard).str();
  bool integer = type.starts_with("s") || type.starts_with("u");
  bool validWidth = width == 16 || width == 32 || width == 64;

  // ptxas takes abs.s64 as never negative (abs(INT64_MIN) is INT64_MIN):
  // min(abs(x), 0) folds to 0. abs.s32 was right in the reproducer but wrong
  // in ewc-fuzz's programs, so every width is rewritten.
  if ((workarounds & kIntAbs) && name == "abs" && type.starts_with("s") &&
      validWidth && ops.size() == 2) {
    os << indent << "{\n"
       << indent << ".reg .b" << width << " %ewc_sign;\n"
       << in << "shr.s" << width << " \t%ewc_sign, " << ops[1] << ", "
       << width - 1 << ";\n"
       << in << "xor.b" << width << " \t" << ops[0] << ", " << ops[1]
       << ", %ewc_sign;\n"
       << in << "sub.s" << width << " \t" << ops[0] << ", " << ops[0]
       << ", %ewc_sign;\n"
       << indent << "}";
    return out;
  }
  // ptxas folds setp.ge.f32 of abs.f32 and a constant <= 0 to true, as if
  // abs could not be NaN.
  if ((workarounds & kFloatAbs) && name == "abs" && ops.size() == 2 &&
      (type == "f16" || type == "bf16" || type == "f32" || type == "f64")) {
    unsigned bits = type == "f32" ? 32 : type == "f64" ? 64 : 16;
    os << in << "and.b" << bits << " \t" << ops[0] << ", " << ops[1] << ", 0x"
       << llvm::utohexstr((1ull << (bits - 1)) - 1) << ";";
    return out;
  }
  // ptxas puts +0.0 where selp.f32 picks a -0.0 (an immediate, or a
  // register it knows holds one).
  if ((workarounds & kFloatSelect) && name == "selp" &&
      (type == "f32" || type == "f64") && ops.size() == 4) {
    os << in << "selp.b" << width << " \t" << ops[0] << ", " << asBits(ops[1])
       << ", " << asBits(ops[2]) << ", " << ops[3] << ";";
    return out;
  }
  // ptxas combines chains of min.s32/max.s32 (with neg and add) into wrong
  // values; a compare and a select compute the same.
  if ((workarounds & kIntMinMax) && (name == "min" || name == "max") &&
      integer && validWidth && ops.size() == 3) {
    os << indent << "{\n"
       << indent << ".reg .pred %ewc_pick;\n"
       << in << "setp." << (name == "min" ? "lt" : "gt") << "." << type
       << " \t%ewc_pick, " << ops[1] << ", " << ops[2] << ";\n"
       << in << "selp.b" << width << " \t" << ops[0] << ", " << ops[1] << ", "
       << ops[2] << ", %ewc_pick;\n"
       << indent << "}";
    return out;
  }
  // ptxas leaves neg.s16 of -32768 (which wraps to -32768) as +32768 in
  // the 32-bit register that holds it, so cvt.s32.s16, rem.s16 and every
  // other reader see 32768; sub.s16 from 0 is as wrong, ~a + 1 is right
  // (docs/ptxas-bug/README.md). Only s16 has shown it.
  if ((workarounds & kIntNeg) && name == "neg" && type == "s16" &&
      ops.size() == 2) {
    os << in << "not.b16 \t" << ops[0] << ", " << ops[1] << ";\n"
       << in << "add.s16 \t" << ops[0] << ", " << ops[0] << ", 1;";
    return out;
  }
  // An 8-byte value that NVPTX stores as two 4-byte halves (an address
  // known only 4-aligned) goes to each st.b32 as a 64-bit register, which
  // the PTX ISA truncates; where an f64 instruction wrote the register
  // (cvt.rn.f64.s16, add.rn.f64), the low word stored was another value
  // (ewc-fuzz --seed 49 on an H100: bitcast(f64(i), u64) kept i in it).
  // mov.b64 splits the register into two b32 ones explicitly.
  if ((workarounds & kWideStore) && name == "st" &&
      inst.opcode.ends_with(".b32") && !inst.opcode.contains(".v") &&
      ops.size() == 2 && ops[1].starts_with("%rd")) {
    os << indent << "{\n"
       << indent << ".reg .b32 %ewc_lo, %ewc_hi;\n"
       << in << "mov.b64 \t{%ewc_lo, %ewc_hi}, " << ops[1] << ";\n"
       << in << inst.opcode << " \t" << ops[0] << ", %ewc_lo;\n"
       << indent << "}";
    return out;
  }
  // A narrow store of a register that a float instruction wrote is stored
  // as the float converted to an integer. A byte from a 16-bit register
  // that cvt.rn.bf16.f32 or cvt.rn.f16.f32 wrote (u8(bitcast(a + b, u16))
  // of halves): the SASS has F2FP.BF16.F32.PACK_AB and then
  // F2I.U8.F16.TRUNC of its register before STG.E.U8, so 9.125 in bf16
  // (0x4112) was stored as 2, not 0x12 (ewc-fuzz --seed 9146 on an H100,
  // 2026-12-06, program 600000336; the driver's JIT and ptxas 12.8 alike).
  // Two bytes from a 32-bit register that cvt.rn.f32.s64 wrote
  // (u16(bitcast(f32(i), i32))): i was stored, not the float's low bits
  // (--seed 9148, program 400000277). The store gets a register an integer
  // instruction wrote: a 16-bit one widened by cvt.u32.u16, a 32-bit one
  // masked by and.b32. Every such store is rewritten, since the text does
  // not say which instruction wrote the register (the cost, one integer
  // instruction a store, did not show in the byte-storing kernels'
  // bandwidth on an H100, docs/ptxas-bug/README.md). Vector stores
  // (st.v2.b8) have not shown it and are left alone.
  if ((workarounds & kNarrowStore) && name == "st" &&
      !inst.opcode.contains(".v") && ops.size() == 2) {
    llvm::StringRef stored = inst.opcode.rsplit('.').second;
    bool bitsType = stored.starts_with("b") || stored.starts_with("u") ||
                    stored.starts_with("s");
    bool byte = bitsType && getWidth(stored) == 8;
    bool half = bitsType && getWidth(stored) == 16;
    if (byte && ops[1].starts_with("%rs")) {
      os << indent << "{\n"
         << indent << ".reg .b32 %ewc_byte;\n"
         << in << "cvt.u32.u16 \t%ewc_byte, " << ops[1] << ";\n"
         << in << inst.opcode << " \t" << ops[0] << ", %ewc_byte;\n"
         << indent << "}";
      return out;
    }
    if ((byte || half) && ops[1].starts_with("%r") &&
        !ops[1].starts_with("%rs") && !ops[1].starts_with("%rd")) {
      os << indent << "{\n"
         << indent << ".reg .b32 %ewc_narrow;\n"
         << in << "and.b32 \t%ewc_narrow, " << ops[1] << ", "
         << (byte ? "255" : "65535") << ";\n"
         << in << inst.opcode << " \t" << ops[0] << ", %ewc_narrow;\n"
         << indent << "}";
      return out;
    }
  }
  return std::nullopt;
}

std::string mlir::ew::applyPtxasWorkarounds(llvm::StringRef ptx,
                                            unsigned workarounds) {
  // Split and joined on '\n' alike, so the text keeps its last newline (or
  // its absence).
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  std::string result;
  result.reserve(ptx.size() + ptx.size() / 4);
  for (auto [index, line] : llvm::enumerate(lines)) {
    if (index)
      result += '\n';
    std::optional<std::string> replacement;
    if (std::optional<Instruction> inst = parseInstruction(line))
      replacement = rewrite(*inst, workarounds);
    result += replacement ? llvm::StringRef(*replacement) : line;
  }
  return result;
}

namespace {

struct PtxasWorkaroundsPass
    : mlir::ew::impl::PtxasWorkaroundsBase<PtxasWorkaroundsPass> {
  using PtxasWorkaroundsBase::PtxasWorkaroundsBase;

  /// A bad list on the command line is an error there, before any input is
  /// read.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    llvm::Expected<unsigned> set = parsePtxasWorkarounds(workarounds);
    if (!set)
      return errorHandler(llvm::toString(set.takeError()));
    return success();
  }

  /// The list again for a pass built in C++ (the pipelines check it first,
  /// checkEwToPTXOptions).
  LogicalResult initialize(MLIRContext *context) override {
    llvm::Expected<unsigned> set = parsePtxasWorkarounds(workarounds);
    if (!set)
      return emitError(UnknownLoc::get(context))
             << llvm::toString(set.takeError());
    workaroundSet = *set;
    return success();
  }

  void runOnOperation() override {
    if (failed(ew::checkLoweredFromEw(getOperation(), getArgument(),
                                      "the PTX of gpu-module-to-ptx",
                                      "--ew-to-gpu, --ew-gpu-to-nvvm and "
                                      "--gpu-module-to-ptx")))
      return signalPassFailure();
    if (!workaroundSet)
      return;
    for (auto binary : getOperation().getOps<gpu::BinaryOp>()) {
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        // Only PTX text, and only for NVIDIA targets.
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly ||
            object.getTarget().getDialect().getNamespace() != "nvvm") {
          objects.push_back(attr);
          continue;
        }
        std::string ptx =
            applyPtxasWorkarounds(object.getObject(), workaroundSet);
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), object.getTarget(), object.getFormat(),
            StringAttr::get(&getContext(), ptx), object.getProperties(),
            object.getKernels()));
      }
      binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    }
  }

  unsigned workaroundSet = 0;
};

} // namespace
