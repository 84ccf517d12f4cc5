D=/tmp/ewc-device
tar -C /tmp -xJf .device/ewc-device.tar.xz
export LD_LIBRARY_PATH=$D/lib
echo "-- LLVM O2 against O3: nvvm-to-ptx (ms) of ewc-run --emit ptx --timing, 15 interleaved runs each"
for k in leaky_relu gelu; do
  a=(); b=()
  for i in $(seq 1 15); do
    for o in 2 3; do
      t=$(EWC_PTX_OPT_LEVEL=$o $D/bin/ewc-run kernels/$k.ew --emit ptx --timing 2>&1 >/dev/null | awk '/GPUModuleToPTX/ {print $1*1000}')
      if [ $o = 2 ]; then a+=($t); else b+=($t); fi
    done
  done
  echo "$k O2: $(printf '%s\n' "${a[@]}" | sort -n | tr '\n' ' ')"
  echo "$k O3: $(printf '%s\n' "${b[@]}" | sort -n | tr '\n' ' ')"
done
echo "-- whole compile (ms) in ewc-run --no-cache --timing, 8 runs each: nvJitLink (loaded beside the compile) and the driver's JIT"
for k in leaky_relu gelu; do
  for j in default none; do
    r=$(for i in $(seq 1 8); do EWC_NVJITLINK=$([ $j = none ] && echo none) $D/bin/ewc-run kernels/$k.ew --n 1024 --no-cache --timing 2>&1 | awk '/^ +[0-9.]+ .*  compile$/ {c=$1*1000} /nvvm-to-ptx/ {p=$1*1000} /PTX to cubin/ {a=$1*1000} END {printf "%.1f/%.1f/%.1f\n", c, p, a}'; done | sort -n | tr '\n' ' ')
    echo "$k nvjitlink=$j (compile/to-PTX/to-cubin): $r"
  done
done
