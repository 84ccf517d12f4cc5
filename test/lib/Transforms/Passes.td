//===- Passes.td - ewc test passes -------------------------*- tablegen -*-===//
//
// Passes that exist only to test ewc: they break the compiler on purpose, so
// that the suite can show that `ewc-run` notices (test/Mutations).
//
//===----------------------------------------------------------------------===//

#ifndef EWC_TEST_TRANSFORMS_PASSES_TD
#define EWC_TEST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def EwTestMutate : Pass<"ew-test-mutate", "::mlir::ModuleOp"> {
  let summary = "Miscompile on purpose: apply one named mutation";
  let description = [{
    Rewrites the IR the way a plausible compiler bug would, so that a test
    can check that `ewc-run` prints False for the result. Most mutations act
    on the output of `convert-ew-to-loops` or `convert-ew-to-gpu` (arith,
    math, scf and llvm.load/store/getelementptr), so one mutation breaks the
    CPU and the GPU path alike; `wrong-default` acts on the ew IR before
    lowering. `ewc-run --test-mutation=NAME`, with this pass's plugin
    loaded (`--load-pass-plugin=EwcTestPasses.so`), adds it at each point of
    its staged compile with `stage` set, and the pass acts at the mutation's
    own.

    The pass fails if the mutation finds nothing to change, so a test whose
    kernel does not exercise the mutation cannot pass by testing nothing;
    `require-change=false` lets it pass, for a kernel variant compiled at
    its first launch (a module with that kernel alone, whose module-wide
    compilation already required a change).

    | mutation | rewrite |
    | --- | --- |
    | `ge-to-gt` | `cmpf oge` -> `ogt`, `cmpi sge` -> `sgt` |
    | `ordered-to-unordered` | ordered `cmpf` predicates -> unordered (`olt` -> `ult`, ...) |
    | `drop-tail` | the element loop stops at n rounded down to a multiple of 8 |
    | `off-by-one` | the element loop stops at n - 1 |
    | `f64-as-f32` | every f64 arith/math op and f64 compare computes in f32 |
    | `neg-as-sub` | `negf x` -> `subf 0.0, x` |
    | `bool-as-2` | a stored i1 is stored as 0 or 2 |
    | `unwritten-output` | the stores of each kernel's first result are deleted |
    | `wrong-default` | each kernel's first `ew.default` changes (x2, or +1) |
    | `max-as-maxnum` | `maximumf`/`minimumf` -> `maxnumf`/`minnumf` (NaN lost) |
    | `swap-where` | `select c, a, b` -> `select c, b, a` (not on `index`: the vectorizer's carries) |
    | `round-toward-zero` | float narrowing (`truncf`) rounds toward zero |
    | `bitcast-as-convert` | an `arith.bitcast` between f32 or f64 and an integer converts the value (`sitofp`, `fptosi`) |
    | `float8-saturate` | a `truncf` to `f8E4M3FN`/`f8E5M2` clamps to the largest finite value first (no NaN or infinity from overflow) |
    | `round-half-away` | `round`'s ties go away from zero (`math.roundeven` -> `math.round`) |
    | `swap-atan2` | `atan2(y, x)` computes `atan2(x, y)` (`math.atan2`'s operands swapped) |
    | `unsigned-as-signed` | `divui remui shrui maxui minui uitofp fptoui` and unsigned `cmpi` -> their signed twins |
    | `stride-as-contiguous` | every input is read with row-major strides of its extents |
    | `broadcast-wrong-dim` | a 1-D input in a deeper nest is indexed by the outermost coordinate |
    | `swap-dims` | loads of two or more indices swap their innermost two |
    | `drop-outer` | the outermost dimension of each nest runs its first iteration only |
    | `merge-noncontiguous` | every input of rank 2 or more is read as if all its dimensions were merged into the innermost (each outer stride the next inner one times its extent) |
    | `drop-first-element` | every reduction's and scan's loop starts at 1 (each run loses its first element) |
    | `exclusive-scan` | a scan leaves out the point's own element: its loop stops before it, or the nest's loop that carries it stores the value from before it |
    | `amax-from-zero` | a float `ew.reduce`/`ew.scan` starting from -inf starts from 0 |
    | `run-lane-repeated` | a lane's run of a row's elements (the GPU's rows schedule: one vector load a run) takes its first element for its second |

    Before (`ge-to-gt`):
    ```mlir
    %9 = arith.cmpf oge, %8, %cst : f32
    ```
    After:
    ```mlir
    %9 = arith.cmpf ogt, %8, %cst : f32
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
  let options = [
    Option<"mutation", "mutation", "std::string", /*default=*/"\"\"",
           "The mutation to apply (see the table above)">,
    Option<"requireChange", "require-change", "bool", /*default=*/"true",
           "Fail when the mutation finds nothing to change">,
    Option<"stage", "stage", "std::string", /*default=*/"\"\"",
           "The IR this run sees (ew, lowered, lowered-variant); the pass "
           "changes nothing unless the mutation acts there. Empty: always "
           "apply">,
  ];
}

#endif // EWC_TEST_TRANSFORMS_PASSES_TD
