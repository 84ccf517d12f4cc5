"""Data parallel over the GPUs of one machine with torch.distributed (NCCL):
one process per GPU, each running ewc kernels on its own device (issue 20).

    torchrun --nproc_per_node=2 examples/distributed/data_parallel.py
    torchrun --nproc_per_node=2 examples/distributed/data_parallel.py --cpu

Every rank builds the same input, x[4096, 1024] and a bias b[1024] (seeded),
and takes its shard of the rows. On its device (cuda:LOCAL_RANK, made torch's
current device first, so that ewc compiles for it and makes no context on
another) it runs a fused elementwise kernel, bias_gelu (x + b, then GELU,
kernels/bias_gelu.ew), and a reduction, column_sum over the shard's rows
(kernels/column_sum.ew); NCCL all-reduces the column sums. Each rank checks
the result against the same computation done by torch on one device, the
whole x at once, and prints "rank R: True". Then, where the machine has two
GPUs, rank 0 calls bias_gelu with x on its device and b on the next one,
which must raise ValueError naming both devices ("tensors on two devices").
The exit status is 0 when every check of this rank held.

--cpu runs the same with the gloo backend and torch CPU tensors on the CPU
path (no GPU needed). ewc is found as installed, else in this repository's
python/ (libewc.so from build/lib, or $EWC_LIBRARY).
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

try:
    import ewc
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ewc


def kernel(name, device):
    """Kernel `name` of kernels/NAME.ew, compiled for `device` ("cuda" on
    torch's current device, or "cpu")."""
    module = ewc.compile(os.path.join(ROOT, "kernels", name + ".ew"),
                         device=device)
    return getattr(module, name)


def reference(x, b):
    """bias_gelu then column_sum, by torch (the tanh form of GELU)."""
    import torch.nn.functional as F
    return F.gelu(x + b, approximate="tanh").sum(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", action="store_true",
                        help="gloo and the CPU path instead of NCCL and GPUs")
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=1024)
    args = parser.parse_args()

    import torch
    import torch.distributed as dist

    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    local = int(os.environ.get("LOCAL_RANK", 0))
    if args.cpu:
        device = torch.device("cpu")
        backend = "gloo"
    else:
        device = torch.device("cuda", local)
        # torch's current device is this rank's: ewc.compile below compiles
        # and loads there, and torch's streams are this device's.
        torch.cuda.set_device(device)
        backend = "nccl"
    dist.init_process_group(backend, rank=rank, world_size=world)

    generator = torch.Generator().manual_seed(20)
    x = torch.randn(args.rows, args.cols, generator=generator)
    b = torch.randn(args.cols, generator=generator)
    shard = x[rank::world].contiguous().to(device)
    bias = b.to(device)

    bias_gelu = kernel("bias_gelu", "cpu" if args.cpu else "cuda")
    column_sum = kernel("column_sum", "cpu" if args.cpu else "cuda")
    sums = column_sum(bias_gelu(shard, bias))
    dist.all_reduce(sums)  # the column sums of every rank's rows

    expected = reference(x.to(device), bias)
    ok = bool(torch.allclose(sums, expected, rtol=1e-4, atol=1e-3))
    worst = float((sums - expected).abs().max())
    print("rank %d: bias_gelu + column_sum on %s, all-reduced over %d "
          "rank(s): max difference %.3g from torch on one device" % (
              rank, device, world, worst), flush=True)

    if not args.cpu and rank == 0 and torch.cuda.device_count() > 1:
        other = torch.device("cuda", (local + 1) % torch.cuda.device_count())
        try:
            bias_gelu(shard, bias.to(other))
            print("rank 0: no error for tensors on %s and %s" % (device,
                                                                 other))
            ok = False
        except ValueError as error:
            named = "tensors on two devices" in str(error)
            print("rank 0: %s" % error, flush=True)
            ok = ok and named

    dist.barrier()
    dist.destroy_process_group()
    print("rank %d: %s" % (rank, ok), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
