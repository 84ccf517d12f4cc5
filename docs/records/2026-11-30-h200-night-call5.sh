#!/usr/bin/env bash
# Session 2026-11-30 (night), call 5: main 6ed2452 (atoms of the widest
# tensor, instcombine<no-verify-fixpoint>): every kernel and some mixed-width
# ones at 2^28 and on special inputs, the lit suite, a GPU+CPU fuzz run.
set -u
tar -C /tmp -xJf .device/ewc-device.tar.xz
D=/tmp/ewc-device; export LD_LIBRARY_PATH=$D/lib
R=$D/bin/ewc-run
mkdir -p /tmp/mixed
cat > /tmp/mixed/up_bf16_f32.ew <<'EW'
kernel up(x: bf16[n]) -> f32[n] {
  return f32(x) * 2.0;
}
EW
cat > /tmp/mixed/down_f32_bf16.ew <<'EW'
kernel down(x: f32[n]) -> bf16[n] {
  return bf16(x * 0.5);
}
EW
cat > /tmp/mixed/f64_mask.ew <<'EW'
kernel f64_mask(x: f64[n]) -> (f64[n], bool[n]) {
  return abs(x), x > 0.0;
}
EW
cat > /tmp/mixed/widen_i32_i64.ew <<'EW'
kernel widen(a: i32[n], b: i32[n]) -> i64[n] {
  return i64(a) * i64(b);
}
EW
{
  echo "-- every kernel at 2^28 with its defaults (E), then special inputs at n = 100003 and 257 with offset 3"
  for k in kernels/*.ew /tmp/mixed/*.ew; do
    e=$($R $k --emit gpu | grep -o 'elements_per_thread = [0-9]*' | awk '{print $3}' | tr '\n' ',')
    p=$($R $k --n 268435456 --bench 2>/dev/null | grep -o '[0-9.]*% of the copy' | sed 's/% of the copy//' | tr '\n' ' ')
    ok=$($R $k --n 100003 --inputs special 2>&1 | tail -1)
    ok2=$($R $k --n 257 --offset 3 --inputs special 2>&1 | tail -1)
    echo "$(basename $k .ew) E=$e $p special:$ok offset3:$ok2"
  done
} > $OUT/kernels.log 2>&1
python3 $D/lit/lit.py -s test --param ewc_tools_dir=$D/bin --param llvm_tools_dir=$D/bin > $OUT/lit.log 2>&1
$D/bin/ewc-fuzz --device both --jobs 16 --seed 7 --count 1000000 --n 257 --inputs special --time-limit 150 > $OUT/fuzz.log 2>&1
cat $OUT/kernels.log; tail -3 $OUT/lit.log; grep -E "^FAIL" $OUT/lit.log | head; tail -4 $OUT/fuzz.log
