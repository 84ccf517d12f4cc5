EWC_DEVICE_SKIP="torch compile overhead seed example large lit libs" bash scripts/device-run.sh > /dev/null 2>&1
E=/tmp/ewc-device/bin/ewc-run
printf 'kernel rmsnorm(x: f32[..., n], w: f32[n], eps: f32 = 1e-6) -> f32[..., n] {\n  return x * rsqrt(mean(x * x, n) + eps) * w;\n}\n' > /tmp/rms32.ew
prof() { # label kernelregex args...
  local label=$1 k=$2; shift 2
  echo "== $label"
  timeout 120 ncu --launch-count 1 -k regex:$k --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats "$E" "$@" > $OUT/ncu-$label.txt 2>&1
  grep -E "Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Block Limit Reg|Local Memory|Stall|stall" $OUT/ncu-$label.txt | head -16
}
prof smbf16-res softmax kernels/softmax.ew --batch 262144 --n 1024
prof smbf16-loop softmax kernels/softmax.ew --batch 262144 --n 1024 --rows-resident 0
prof rms32-res rmsnorm /tmp/rms32.ew --batch 262144 --n 1024
prof rms32-loop rmsnorm /tmp/rms32.ew --batch 262144 --n 1024 --rows-resident 0
