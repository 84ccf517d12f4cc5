# Sourced by the rows schedule's probes (long-rows.sh, resident-rows.sh, attention.sh) on the
# device, from the repository root with the pack carried: unpacks the pack,
# writes an f32 softmax, and defines run, bench and ab.
EWC_DEVICE_SKIP="torch compile overhead seed example large lit libs" bash scripts/device-run.sh > /dev/null 2>&1
E=/tmp/ewc-device/bin/ewc-run
printf 'kernel softmax(x: f32[..., n]) -> f32[..., n] {\n  let e = exp(x - amax(x, n));\n  return e / sum(e, n);\n}\n' > /tmp/sm32.ew
bench() { # label args...: ewc-run --bench's % of the copy, or the error
  local label=$1; shift
  r=$("$E" "$@" --bench 2>&1 | grep -o 'kernel at [0-9.]*%\|error.*' | head -1)
  echo "$label: $r"
}
run() { # label args...: the verdict's last word, or the error
  local label=$1; shift
  echo "$label: $("$E" "$@" 2>&1 | tail -1)"
}
# ab KNOB "VALUES" "SHAPES" KERNEL...: each KERNEL ("label file flag=", the
# flag that takes the rows: --batch= or --dim=m=) at each shape ROWSxLENGTH,
# with the runtime's choice and each value of --KNOB.
ab() {
  local knob=$1 values=$2 shapes=$3 shape v kernel label file rowsflag
  shift 3
  for shape in $shapes; do
    local rows=${shape%x*} length=${shape#*x}
    for v in default $values; do
      local k=()
      [[ $v != default ]] && k=(--$knob $v)
      for kernel in "$@"; do
        read -r label file rowsflag <<<"$kernel"
        bench "$label ${rows}x${length} $knob=$v" $file $rowsflag$rows --n $length "${k[@]}"
      done
    done
  done
}
