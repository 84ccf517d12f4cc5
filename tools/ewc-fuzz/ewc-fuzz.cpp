//===- ewc-fuzz.cpp - Random programs, checked against the reference ------===//
//
// Differential testing in one process: generates seeded random .ew programs
// (Generator.h), compiles each for the CPU through the driver (EWCDriver, the
// code ewc-run and the C++ API share), runs every kernel on seeded inputs
// and checks each result with the reference, as ewc-run does. A program
// that the front end rejects is a generator or front-end bug, one that fails
// to compile a compiler bug, one whose results differ a miscompilation (or a
// reference bug). Crashes and LLVM fatal errors are caught per program
// (llvm::CrashRecoveryContext) so that one bad program does not end a long
// run. docs/fuzzing.md, "Random programs", records the runs.
//
// Exit codes: 0 every program passed, 1 any failed, 2 a usage error.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"
#include "Reducer.h"

#include "ewc/Driver/Driver.h"
#include "ewc/Frontend/AST.h"
#include "ewc/Reference/Reference.h"

#include "Transforms/TestPasses.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace ewc;
namespace cl = llvm::cl;

namespace {

cl::opt<uint64_t> seedOpt("seed", cl::desc("seed of the run (default 0)"),
                          cl::init(0));
cl::opt<uint64_t> countOpt("count", cl::desc("programs to run (default 100)"),
                           cl::init(100));
cl::opt<uint64_t>
    firstOpt("first", cl::desc("index of the first program (default 0): "
                               "--first I --count 1 reruns program I alone"),
             cl::init(0));
cl::opt<unsigned> sizeOpt("size",
                          cl::desc("size of the programs (default 4)"),
                          cl::init(4));
cl::opt<int64_t> nOpt("n", cl::desc("elements per run (default 257)"),
                      cl::init(257));
cl::opt<std::string>
    inputsOpt("inputs", cl::desc("normal|uniform|special|ints (default special)"),
              cl::init("special"));
cl::opt<std::string> saveOpt(
    "save-failures",
    cl::desc("write each failing program and its commands into DIR"),
    cl::value_desc("DIR"));
cl::opt<bool> printOpt("print",
                       cl::desc("print the programs instead of running them"));
cl::opt<bool> reduceOpt(
    "reduce", cl::desc("shrink each failing program to a smaller one that "
                       "fails the same way (Reducer.h)"));
cl::opt<double> timeLimitOpt(
    "time-limit",
    cl::desc("stop starting programs after this many seconds (0: no limit); "
             "the summary counts the programs that ran"),
    cl::init(0));
cl::opt<bool> verboseOpt("v", cl::desc("print a line for every program"));
cl::opt<std::string>
    mutationOpt("test-mutation", cl::Hidden,
                cl::desc("compile with a deliberate miscompilation "
                         "(test/Mutations), to show that runs catch it"));

enum class Verdict {
  Ok,
  Mismatch,
  Rejected,
  CompileError,
  RunError,
  Crash,
};
constexpr const char *kVerdictNames[] = {"OK",            "MISMATCH",
                                         "REJECTED",      "COMPILE-ERROR",
                                         "RUN-ERROR",     "CRASH"};

struct Outcome {
  Verdict verdict = Verdict::Ok;
  std::string details;
  unsigned kernels = 0;
};

/// Formats element `i` of `array` (index 0 for a scalar).
std::string formatElement(const HostArray &array, int64_t i) {
  if (isFloat(array.getDType()))
    return llvm::formatv("{0}", llvm::format("%.9g", array.getAsDouble(i)));
  if (array.getDType() == DType::Bool)
    return array.getAsInt(i) ? "true" : "false";
  return std::to_string(array.getAsInt(i));
}

/// Runs `kernel` of `module` and checks it; appends what failed to `out`.
llvm::Expected<Verdict> runKernel(const Kernel &kernel,
                               driver::LoadedModule &module, uint64_t seed,
                               InputKind kind, llvm::raw_ostream &out) {
  const KernelSignature *signature = module.lookupKernel(kernel.getName());
  if (!signature)
    return llvm::createStringError("no compiled kernel '" + kernel.getName() +
                                   "'");
  int64_t n = nOpt;
  std::vector<HostArray> inputs = makeRandomInputs(kernel, n, seed, kind);
  // A defaulted scalar runs with the compiled IR's default, the reference
  // with the source's, so a lost default shows as a mismatch (as in ewc-run).
  std::vector<HostArray> compiledDefaults;
  compiledDefaults.reserve(signature->params.size());
  std::vector<const void *> params;
  for (auto [index, param] : llvm::enumerate(signature->params)) {
    if (!param.defaultValue) {
      params.push_back(inputs[index].data());
      continue;
    }
    HostArray &value =
        compiledDefaults.emplace_back(param.defaultValue->dtype, 1);
    param.defaultValue->toBytes(value.data());
    params.push_back(value.data());
  }
  std::vector<HostArray> outputs;
  std::vector<void *> outputPointers;
  for (unsigned r = 0; r < kernel.getResults().size(); ++r) {
    outputs.emplace_back(kernel.getResultType(r).dtype, n);
    outputs.back().fillPoison();
    outputPointers.push_back(outputs.back().data());
  }
  if (llvm::Error error = module.launch(*signature, params, outputPointers, n))
    return std::move(error);
  // The three worst elements of each result are shown.
  CheckOptions check;
  check.numWorst = 3;
  llvm::Expected<std::vector<CompareResult>> results =
      checkKernel(kernel, inputs, outputs, n, check);
  if (!results)
    return results.takeError();
  Verdict verdict = Verdict::Ok;
  for (auto [index, result] : llvm::enumerate(*results)) {
    if (result.ok())
      continue;
    verdict = Verdict::Mismatch;
    out << "  kernel '" << kernel.getName() << "' result " << index << ": ";
    result.print(out);
    out << "\n";
    for (const Mismatch &mismatch :
         llvm::ArrayRef(result.worst).take_front(3)) {
      out << "    [" << mismatch.index << "]";
      for (const auto &param : kernel.getParams())
        out << " " << param->getName() << "="
            << formatElement(inputs[param->getIndex()],
                             param->isTensor() ? mismatch.index : 0);
      out << ": got " << mismatch.got << ", expected " << mismatch.expected
          << "\n";
    }
  }
  return verdict;
}

/// Compiles, runs and checks one program; `seed` seeds its inputs.
Outcome runProgram(const std::string &text, const std::string &name,
                   uint64_t seed, InputKind kind) {
  Outcome outcome;
  llvm::raw_string_ostream out(outcome.details);
  auto source = driver::Source::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), nullptr);
  if (!source) {
    outcome.verdict = Verdict::Rejected;
    out << llvm::toString(source.takeError());
    return outcome;
  }
  driver::CompileOptions options;
  options.target = driver::Target::Cpu;
  if (!mutationOpt.empty())
    options.addPasses = [](mlir::OpPassManager &pm, driver::HookPoint point) {
      using mlir::ew::test::MutationStage;
      mlir::ew::test::addTestMutation(pm, mutationOpt,
                                      point == driver::HookPoint::Ew
                                          ? MutationStage::Ew
                                          : MutationStage::Lowered);
    };
  auto module = driver::LoadedModule::compile(**source, options);
  if (!module || !*module) {
    outcome.verdict = Verdict::CompileError;
    if (!module)
      out << llvm::toString(module.takeError());
    return outcome;
  }
  for (const auto &kernel : (*source)->getAST().getKernels()) {
    ++outcome.kernels;
    llvm::Expected<Verdict> verdict =
        runKernel(*kernel, **module, seed, kind, out);
    if (!verdict) {
      outcome.verdict = Verdict::RunError;
      out << "  kernel '" << kernel->getName()
          << "': " << llvm::toString(verdict.takeError()) << "\n";
    } else if (*verdict == Verdict::Mismatch) {
      if (outcome.verdict != Verdict::RunError)
        outcome.verdict = *verdict;
    }
  }
  return outcome;
}

/// The commands that rerun program `index` alone.
std::string getReproducers(uint64_t index, uint64_t programSeed,
                           llvm::StringRef file) {
  return llvm::formatv(
      "ewc-fuzz --seed {0} --first {1} --count 1 --size {2} --n {3} "
      "--inputs {4}{5}\newc-run {6} --device cpu --n {3} --inputs {4} "
      "--seed {7}{8}\n",
      seedOpt.getValue(), index, sizeOpt.getValue(), nOpt.getValue(),
      inputsOpt.getValue(),
      mutationOpt.empty() ? "" : " --test-mutation " + mutationOpt,
      file, programSeed,
      mutationOpt.empty() ? "" : " --test-mutation=" + mutationOpt);
}

/// Writes the failing program and its commands into --save-failures.
void saveFailure(uint64_t index, uint64_t programSeed, const std::string &text,
                 const Outcome &outcome, llvm::StringRef suffix = "") {
  llvm::SmallString<128> path(saveOpt);
  llvm::sys::path::append(path, llvm::formatv("fuzz-{0}-{1}{2}.ew",
                                              seedOpt.getValue(), index, suffix)
                                    .str());
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "error: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return;
  }
  std::string commands = getReproducers(index, programSeed, path);
  file << "# " << kVerdictNames[static_cast<int>(outcome.verdict)]
       << ", found by ewc-fuzz. Reproduce with:\n";
  llvm::SmallVector<llvm::StringRef, 2> lines;
  llvm::StringRef(commands).trim().split(lines, '\n');
  for (llvm::StringRef line : lines)
    file << "#   " << line << "\n";
  file << text;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "ewc-fuzz: random .ew programs, compiled for the CPU and checked "
      "against the reference\n");
  std::optional<InputKind> kind = parseInputKindName(inputsOpt);
  if (!kind) {
    llvm::errs() << "error: invalid --inputs '" << inputsOpt
                 << "': expected normal, uniform, special or ints\n";
    return 2;
  }
  if (!saveOpt.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(saveOpt)) {
      llvm::errs() << "error: cannot create '" << saveOpt
                   << "': " << ec.message() << "\n";
      return 2;
    }
  fuzz::GeneratorOptions generatorOptions;
  generatorOptions.size = sizeOpt;

  // Crashes and fatal errors of one program end that program only.
  llvm::CrashRecoveryContext::Enable();
  unsigned counts[std::size(kVerdictNames)] = {};
  uint64_t kernels = 0;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  uint64_t ran = 0;
  for (uint64_t index = firstOpt; index < firstOpt + countOpt; ++index) {
    if (timeLimitOpt > 0 && elapsed() > timeLimitOpt)
      break;
    ++ran;
    uint64_t programSeed = fuzz::deriveProgramSeed(seedOpt, index);
    std::string text = fuzz::generateProgram(programSeed, generatorOptions);
    if (printOpt) {
      llvm::outs() << "# program " << index << "\n" << text << "\n";
      continue;
    }
    Outcome outcome;
    std::string name = llvm::formatv("fuzz-{0}-{1}.ew", seedOpt.getValue(),
                                     index);
    llvm::CrashRecoveryContext crc;
    if (!crc.RunSafely(
            [&] { outcome = runProgram(text, name, programSeed, *kind); })) {
      outcome = Outcome();
      outcome.verdict = Verdict::Crash;
    }
    ++counts[static_cast<int>(outcome.verdict)];
    kernels += outcome.kernels;
    if (outcome.verdict == Verdict::Ok) {
      if (verboseOpt)
        llvm::outs() << "program " << index << ": OK\n";
      continue;
    }
    llvm::outs() << "program " << index << ": "
                 << kVerdictNames[static_cast<int>(outcome.verdict)] << "\n"
                 << outcome.details;
    if (!llvm::StringRef(outcome.details).ends_with("\n"))
      llvm::outs() << "\n";
    llvm::outs() << text
                 << getReproducers(index, programSeed, "FILE.ew");
    if (!saveOpt.empty())
      saveFailure(index, programSeed, text, outcome);
    // A rejection is not reduced: any typo would reproduce it.
    if (reduceOpt && outcome.verdict != Verdict::Rejected) {
      std::string reduced =
          fuzz::reduceProgram(text, [&](const std::string &candidate) {
            Outcome again;
            llvm::CrashRecoveryContext retry;
            if (!retry.RunSafely([&] {
                  again = runProgram(candidate, name, programSeed, *kind);
                }))
              again.verdict = Verdict::Crash;
            return again.verdict == outcome.verdict;
          });
      llvm::outs() << "reduced:\n" << reduced;
      if (!saveOpt.empty())
        saveFailure(index, programSeed, reduced, outcome, ".reduced");
    }
  }
  if (printOpt)
    return 0;
  double seconds = elapsed();
  uint64_t failures = ran - counts[0];
  llvm::outs() << llvm::formatv(
      "{0} programs, {1} ok, {2} mismatch, {3} rejected, {4} compile-error, "
      "{5} run-error, {6} crash ({7} kernels, {8:F1} s, {9:F1} "
      "programs/s)\n",
      ran, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
      kernels, seconds, ran / seconds);
  return failures ? 1 : 0;
}
