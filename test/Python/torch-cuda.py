# The APIs' promise on torch CUDA tensors, on the H200: bias add with
# broadcasting by name, views in as they are (x.T through the tiled
# variant, ::2 slices, an expanded b), results shaped by the declaration,
# shapes checked by name, each result equal to torch's bit for bit.
#
# REQUIRES: torch-cuda
# RUN: %ewc_torch_python %s | FileCheck %s

import torch

import ewc

mod = ewc.compile(source="""
kernel bias_add(x: f32[m, n], b: f32[n]) -> f32[m, n] {
  return x + b;
}
kernel leaky_relu(x: bf16[...], slope: f32 = 0.01) -> bf16[...] {
  return where(x >= 0.0, x, slope * x);
}
""", device="cuda")

torch.manual_seed(0)
base = torch.randn(1000, 768, device="cuda")
b768 = torch.randn(768, device="cuda")
b1000 = torch.randn(1000, device="cuda")


def check(what, x, b):
    y = mod.bias_add(x, b)
    print("%s: %s %s %s exact %s" % (what, tuple(y.shape), y.device.type,
                                     y.is_contiguous(), torch.equal(y, x + b)))


# CHECK: contiguous: (1000, 768) cuda True exact True
check("contiguous", base, b768)
# x.T: read across its rows, staged through shared memory in tiles.
# CHECK-NEXT: x.T: (768, 1000) cuda True exact True
check("x.T", base.T, b1000)
# CHECK-NEXT: x[1:, 3:].T: (765, 999) cuda True exact True
check("x[1:, 3:].T", base[1:, 3:].T, b1000[1:])
# CHECK-NEXT: x[:, ::2]: (1000, 384) cuda True exact True
check("x[:, ::2]", base[:, ::2], b768[::2])
# CHECK-NEXT: expanded b: (1000, 768) cuda True exact True
check("expanded b", base, b768[:1].expand(768))

# out= takes a view of the declared shape, here a transposed one.
out = torch.empty(768, 1000, device="cuda").T
mod.bias_add(base, b768, out=out)
# CHECK-NEXT: out= x.T view: exact True
print("out= x.T view: exact", torch.equal(out, base + b768))

# LeakyReLU on bf16 of rank 3, a transposed view in, as F.leaky_relu.
x3 = torch.randn(4, 96, 130, device="cuda").to(torch.bfloat16)
for what, x in [("contiguous", x3), ("transposed", x3.transpose(1, 2))]:
    y = mod.leaky_relu(x, slope=0.2)
    # CHECK-NEXT: leaky_relu contiguous: (4, 96, 130) exact True
    # CHECK-NEXT: leaky_relu transposed: (4, 130, 96) exact True
    print("leaky_relu %s: %s exact %s" % (
        what, tuple(y.shape),
        torch.equal(y, torch.nn.functional.leaky_relu(x, 0.2))))

# Shapes are matched by name, with both extents in the error.
try:
    mod.bias_add(base, b1000)
except ValueError as error:
    # CHECK-NEXT: mismatch: bias_add(): 'b' has n = 1000 but 'x' has n = 768
    print("mismatch:", error)
