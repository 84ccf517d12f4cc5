// RUN: ewc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --gpu-module-to-ptx='llvm-passes=function(no-such-pass)'

// A gpu.module without a target has nothing to be compiled for (the error
// comes before the LLVM passes are looked at).
module attributes {gpu.container_module} {
  // expected-error @below {{has no target to serialize for (expected an #nvvm.target, see gpu-nvvm-attach-target)}}
  gpu.module @ewc_kernels {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// A pipeline LLVM cannot parse is an error on the module, not a crash.
module attributes {gpu.container_module} {
  // expected-error @below {{invalid LLVM pass pipeline 'function(no-such-pass)': unknown function pass 'no-such-pass'}}
  gpu.module @ewc_kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
