#!/usr/bin/env bash
# Session 2026-11-30 (night), call 8: atoms of the widest output (26a8de4):
# the mixed-width kernels, every kernel on special inputs, GPU lit, a fuzz run.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
mkdir -p /tmp/mixed
printf 'kernel up(x: bf16[n]) -> f32[n] {\n  return f32(x) * 2.0;\n}\n' > /tmp/mixed/up_bf16_f32.ew
printf 'kernel down(x: f32[n]) -> bf16[n] {\n  return bf16(x * 0.5);\n}\n' > /tmp/mixed/down_f32_bf16.ew
printf 'kernel f64_mask(x: f64[n]) -> (f64[n], bool[n]) {\n  return abs(x), x > 0.0;\n}\n' > /tmp/mixed/f64_mask.ew
printf 'kernel widen(a: i32[n], b: i32[n]) -> i64[n] {\n  return i64(a) * i64(b);\n}\n' > /tmp/mixed/widen_i32_i64.ew
{
  for k in kernels/in_range.ew kernels/leaky_relu_mask.ew kernels/int_ops.ew kernels/quantize.ew kernels/leaky_relu.ew /tmp/mixed/*.ew; do
    e=$($R $k --emit gpu | grep -o 'elements_per_thread = [0-9]*' | awk '{print $3}' | tr '\n' ',')
    p=$($R $k --n 268435456 --bench 2>/dev/null | grep -o '[0-9.]*% of the copy' | sed 's/% of the copy//' | tr '\n' ' ')
    ok=$($R $k --n 100003 --inputs special 2>&1 | tail -1)
    ok2=$($R $k --n 257 --offset 3 --inputs special 2>&1 | tail -1)
    echo "$(basename $k .ew) E=$e $p special:$ok offset3:$ok2"
  done
} > $OUT/kernels.log 2>&1
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
$D/bin/ewc-fuzz --device both --jobs 16 --seed 11 --count 1000000 --time-limit 60 > $OUT/fuzz.log 2>&1
cat $OUT/kernels.log; tail -3 $OUT/lit.log; grep -E "^FAIL" $OUT/lit.log | head; tail -1 $OUT/fuzz.log
