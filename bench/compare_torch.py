#!/usr/bin/env python3
"""ewc's LeakyReLU against torch.nn.functional.leaky_relu, bit for bit.

For f32, f16 and bf16 (kernels/leaky_relu.ew with T each of them) and each
slope, the script writes one input as .npy, runs

    ewc-run kernels/leaky_relu.ew --type T=DTYPE --device cuda --input x=X.npy --save out0=OUT.npy --arg slope=S

and compares OUT with F.leaky_relu(x, S) computed by torch on the GPU, bit for
bit. The input holds every special value (+-0.0, NaN with and without sign and
payload, +-inf, the largest and smallest normals, subnormals, values whose
product with the slope underflows to a signed zero), every bit pattern of the
type for f16 and bf16 (all 65536), and random normals and random bit patterns
for f32. Inputs come from numpy's seeded generator, not torch's, so that the
--device cpu mode (below) needs no torch and feeds the same bits.

torch computes `x > 0 ? x : x * slope` in f32 (opmath) and rounds once to the
storage type; ewc computes `x >= 0 ? x : slope * x` the same way. They differ
only at x = +-0.0 with a negative slope: torch takes the product, a zero of
the other sign (+0.0 -> -0.0, -0.0 -> +0.0), ewc returns x. Those elements are
reported as the expected class "signed zero"; any other difference (NaN
payloads included) is reported element by element and makes the exit status 1.

--device cpu runs ewc-run on the CPU and compares with a numpy emulation of
torch's formula (the same opmath arithmetic; NaN payloads follow the x86
rules, and bf16 rounds like c10::BFloat16), for checking this script where
there is no GPU.

usage: bench/compare_torch.py [--ewc-run PATH] [--device cuda|cpu]
                              [--dtypes f32,f16,bf16] [--slopes 0.01,0.2,-1.5]
                              [--random N] [--seed S] [--keep DIR]

Exit status: 0 when only expected differences were found, 1 when any other
difference was, 2 on an error (ewc-run failed, a file is missing).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# dtype name -> (numpy storage type of the .npy, bits type); the kernel is
# the generic kernels/leaky_relu.ew with T the dtype. bf16 travels as its
# 16-bit patterns (`<u2`), as ewc-run's --input expects.
KERNEL = "kernels/leaky_relu.ew"
DTYPES = {
    "f32": ("<f4", np.uint32),
    "f16": ("<f2", np.uint16),
    "bf16": ("<u2", np.uint16),
}

# Where scripts/device-run.sh unpacks the device pack, then the local builds.
EWC_RUN_CANDIDATES = [
    "/tmp/ewc-device/bin/ewc-run",
    os.path.join(ROOT, "build-static/bin/ewc-run"),
    os.path.join(ROOT, "build/bin/ewc-run"),
]

# Special values as bit patterns, per dtype.
SPECIAL_BITS = {
    "f32": [
        0x00000000, 0x80000000,  # +0.0, -0.0
        0x7FC00000, 0xFFC00000,  # NaN, -NaN
        0x7FC00001, 0x7FA00000,  # NaN with a payload, signaling NaN
        0x7F800000, 0xFF800000,  # +inf, -inf
        0x7F7FFFFF, 0xFF7FFFFF,  # largest, lowest
        0x00800000, 0x80800000,  # smallest normals
        0x00000001, 0x80000001,  # smallest subnormals (x * 0.01 underflows)
        0x007FFFFF, 0x807FFFFF,  # largest subnormals
        0x3F800000, 0xBF800000,  # +-1.0
    ],
    "f16": [
        0x0000, 0x8000, 0x7E00, 0xFE00, 0x7E01, 0x7D00, 0x7C00, 0xFC00,
        0x7BFF, 0xFBFF, 0x0400, 0x8400, 0x0001, 0x8001, 0x03FF, 0x83FF,
        0x3C00, 0xBC00,
    ],
    "bf16": [
        0x0000, 0x8000, 0x7FC0, 0xFFC0, 0x7FC1, 0x7FA0, 0x7F80, 0xFF80,
        0x7F7F, 0xFF7F, 0x0080, 0x8080, 0x0001, 0x8001, 0x007F, 0x807F,
        0x3F80, 0xBF80,
    ],
}


def make_input_bits(dtype, random_count, seed):
    """The input of one dtype as bit patterns: the specials, then every
    pattern (16-bit types) or random patterns (f32), then random normals."""
    bits_type = DTYPES[dtype][1]
    rng = np.random.default_rng(seed)
    parts = [np.array(SPECIAL_BITS[dtype], dtype=bits_type)]
    if bits_type == np.uint16:
        parts.append(np.arange(1 << 16, dtype=np.uint32).astype(np.uint16))
    else:
        parts.append(rng.integers(0, 1 << 32, size=random_count,
                                  dtype=np.uint64).astype(np.uint32))
    normals = rng.standard_normal(random_count).astype(np.float32)
    parts.append(from_f32(normals, dtype))
    return np.concatenate(parts)


#===-------------------------------------------------------------------------===#
# Conversions between bit patterns and f32 (the opmath type)
#===-------------------------------------------------------------------------===#

def to_f32(bits, dtype):
    """Widens bit patterns of `dtype` to f32 values (exact)."""
    if dtype == "f32":
        return bits.view(np.float32)
    if dtype == "f16":
        return bits.view(np.float16).astype(np.float32)
    return (bits.astype(np.uint32) << 16).view(np.float32)


def from_f32(values, dtype):
    """Rounds f32 values to `dtype` (to nearest even) as bit patterns; a bf16
    NaN becomes 0x7FC0, as c10::BFloat16 makes it."""
    values = np.asarray(values, dtype=np.float32)
    if dtype == "f32":
        return values.view(np.uint32).copy()
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return values.astype(np.float16).view(np.uint16)
    wide = values.view(np.uint32).astype(np.uint64)
    rounded = ((wide + 0x7FFF + ((wide >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(values), np.uint16(0x7FC0), rounded)


def emulate_torch(bits, dtype, slope):
    """torch's leaky_relu on the CPU: f32 opmath, `x > 0 ? x : x * slope`,
    rounded once to the storage type."""
    x = to_f32(bits, dtype)
    with np.errstate(all="ignore"):
        y = np.where(x > 0, x, x * np.float32(slope))
    return from_f32(y, dtype)


def torch_on_gpu(bits, dtype, slope):
    """torch.nn.functional.leaky_relu(x, slope) on the GPU, as bit patterns."""
    import torch

    if dtype == "f32":
        x = torch.from_numpy(bits.view(np.float32).copy())
    elif dtype == "f16":
        x = torch.from_numpy(bits.view(np.float16).copy())
    else:
        x = torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)
    y = torch.nn.functional.leaky_relu(x.cuda(), slope).cpu()
    if dtype == "bf16":
        y = y.view(torch.int16)
    return y.numpy().view(DTYPES[dtype][1])


#===-------------------------------------------------------------------------===#
# Running ewc and classifying differences
#===-------------------------------------------------------------------------===#

def run_ewc(ewc_run, dtype, bits, slope, device, workdir):
    """Runs the kernel of `dtype` on `bits`; returns (output bits, verdict
    line). Raises RuntimeError when ewc-run fails (exit 2 or no output)."""
    storage, bits_type = DTYPES[dtype]
    tag = f"{dtype}_{slope}"
    x_path = os.path.join(workdir, f"x_{tag}.npy")
    out_path = os.path.join(workdir, f"out_{tag}.npy")
    np.save(x_path, bits.view(np.dtype(storage)))
    command = [ewc_run, os.path.join(ROOT, KERNEL), "--type", f"T={dtype}",
               "--device", device,
               "--input", f"x={x_path}", "--save", f"out0={out_path}",
               "--arg", f"slope={slope!r}"]
    done = subprocess.run(command, capture_output=True, text=True)
    # 0 True, 1 False: both ran and saved; 2 is an error.
    if done.returncode not in (0, 1) or not os.path.exists(out_path):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n"
                           f"{done.stdout}{done.stderr}")
    out = np.load(out_path)
    if out.dtype != np.dtype(storage) or out.shape != bits.shape:
        raise RuntimeError(f"{out_path}: {out.dtype}{list(out.shape)}, "
                           f"expected {np.dtype(storage)}[{bits.size}]")
    return out.view(bits_type), done.stdout.strip()


def is_nan(bits, dtype):
    return np.isnan(to_f32(bits, dtype))


def classify(x, got, want, dtype, slope):
    """One class per differing element: 'signed zero' (expected: x = +-0.0,
    slope < 0, ewc returns x and torch the zero of the other sign), 'NaN
    payload' (both NaN, other bits) or 'value' (anything else)."""
    magnitude = np.uint32(0x7FFFFFFF if dtype == "f32" else 0x7FFF)
    sign = np.uint32(0x80000000 if dtype == "f32" else 0x8000)
    x32, got32, want32 = (a.astype(np.uint32) for a in (x, got, want))
    signed_zero = ((x32 & magnitude) == 0) & (got32 == x32) & \
        (want32 == (x32 ^ sign)) & (slope < 0)
    nan_payload = is_nan(got, dtype) & is_nan(want, dtype)
    return np.where(signed_zero, "signed zero",
                    np.where(nan_payload, "NaN payload", "value"))


def describe(bits, dtype):
    width = 8 if dtype == "f32" else 4
    value = float(to_f32(np.array([bits], dtype=DTYPES[dtype][1]), dtype)[0])
    return f"0x{int(bits):0{width}x} ({value!r})"


def compare_case(ewc_run, dtype, slope, device, args, workdir):
    """Runs one dtype and slope; prints the report; returns the number of
    unexpected differences."""
    bits = make_input_bits(dtype, args.random, args.seed)
    got, verdict = run_ewc(ewc_run, dtype, bits, slope, device, workdir)
    want = (torch_on_gpu if device == "cuda" else emulate_torch)(
        bits, dtype, slope)
    differ = np.nonzero(got != want)[0]
    classes = classify(bits[differ], got[differ], want[differ], dtype, slope)
    counts = {name: int(np.sum(classes == name))
              for name in ("signed zero", "NaN payload", "value")}
    unexpected = counts["NaN payload"] + counts["value"]
    status = "ok" if unexpected == 0 else "DIFFERENT"
    print(f"{dtype:4} slope {slope:>5}: {bits.size} elements, "
          f"{differ.size} differ ({', '.join(f'{v} {k}' for k, v in counts.items())}); "
          f"ewc-run's own check: {verdict or '-'}; {status}")
    shown = 0
    for index, cls in zip(differ, classes):
        if cls == "signed zero" and not args.verbose:
            continue
        if shown == args.max_report:
            print(f"    ... (--max-report {args.max_report})")
            break
        shown += 1
        print(f"    [{index}] {cls}: x = {describe(bits[index], dtype)}, "
              f"ewc {describe(got[index], dtype)}, "
              f"torch {describe(want[index], dtype)}")
    if counts["signed zero"] and not args.verbose:
        zeros = [int(i) for i, c in zip(differ, classes) if c == "signed zero"]
        print(f"    signed zero (expected) at {zeros[:16]}"
              f"{' ...' if len(zeros) > 16 else ''}: x = +-0.0, torch x * slope, ewc x")
    return unexpected


def find_ewc_run(path):
    if path:
        return path
    for candidate in EWC_RUN_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    return EWC_RUN_CANDIDATES[0]


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ewc-run", help="path of ewc-run (default: the first "
                        f"of {', '.join(EWC_RUN_CANDIDATES)} that exists)")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    parser.add_argument("--dtypes", default="f32,f16,bf16")
    parser.add_argument("--slopes", default="0.01,0.2,-1.5")
    parser.add_argument("--random", type=int, default=1 << 20,
                        help="random normals (and random f32 bit patterns)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-report", type=int, default=50,
                        help="differing elements printed per case")
    parser.add_argument("--verbose", action="store_true",
                        help="print the expected differences one by one too")
    parser.add_argument("--keep", help="write the .npy files here and keep them")
    args = parser.parse_args(argv)

    dtypes = args.dtypes.split(",")
    for dtype in dtypes:
        if dtype not in DTYPES:
            parser.error(f"unknown dtype '{dtype}' (expected f32, f16, bf16)")
    slopes = [float(s) for s in args.slopes.split(",")]
    ewc_run = find_ewc_run(args.ewc_run)
    if not os.path.exists(ewc_run):
        print(f"error: no ewc-run at {ewc_run} (pass --ewc-run)", file=sys.stderr)
        return 2
    if args.device == "cuda":
        import torch
        if not torch.cuda.is_available():
            print("error: torch sees no CUDA device (use --device cpu to "
                  "compare with the emulation)", file=sys.stderr)
            return 2
        print(f"torch {torch.__version__} on {torch.cuda.get_device_name(0)}; "
              f"ewc-run {ewc_run}")
    else:
        print(f"numpy {np.__version__} emulation of torch; ewc-run {ewc_run} "
              "on the CPU")

    workdir = args.keep or tempfile.mkdtemp(prefix="ewc-compare-torch-")
    os.makedirs(workdir, exist_ok=True)
    unexpected = 0
    try:
        for dtype in dtypes:
            for slope in slopes:
                unexpected += compare_case(ewc_run, dtype, slope, args.device,
                                           args, workdir)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print("bit for bit equal but for the expected signed zeros"
          if unexpected == 0 else
          f"{unexpected} unexpected differences")
    return 0 if unexpected == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
