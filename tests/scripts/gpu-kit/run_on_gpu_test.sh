#!/usr/bin/env bash
# run-on-gpu.sh on a machine without a GPU: it says so in one line, runs nothing, writes nothing
# and exits 3, a status of its own. Skips (77) where a GPU is present.
#   run_on_gpu_test.sh SCRIPT
set -uo pipefail
script="$1"
gpus="$(nvidia-smi -L 2>/dev/null)" || gpus=""
if grep '^GPU ' <<< "$gpus" > /dev/null; then
  echo "a GPU is present: the kit runs for real there"
  exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
msg="$(bash "$script" "$out/results" 2>&1)"
rc=$?
[ $rc -eq 3 ] || { echo "expected exit 3 without a GPU, got $rc: $msg"; exit 1; }
[[ "$msg" == *"no NVIDIA GPU here"* ]] || { echo "unexpected message: $msg"; exit 1; }
[ ! -e "$out/results" ] || { echo "it wrote $out/results without a GPU"; exit 1; }
# A usage error is 2, not 3.
bash "$script" >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "expected exit 2 without OUTDIR, got $rc"; exit 1; }
for bad in "--within" "--within 0 $out/results" "--within 1.5 $out/results" "--within soon $out/results" \
           "$out/results gpu" "$out/results run:" "$out/results run:lora,,spgemm" "$out/results run:../x"; do
  # shellcheck disable=SC2086  # split on purpose: each case is a whole command line
  bash "$script" $bad >/dev/null 2>&1
  rc=$?
  [ $rc -eq 2 ] || { echo "expected exit 2 for '$bad', got $rc"; exit 1; }
done
[ ! -e "$out/results" ] || { echo "a usage error wrote $out/results"; exit 1; }
# A good --within, and a run of chosen families, pass the usage check and reach the GPU check.
for good in "--within 60 $out/results" "$out/results device run:lora,spgemm"; do
  # shellcheck disable=SC2086  # split on purpose, as above
  bash "$script" $good >/dev/null 2>&1
  rc=$?
  [ $rc -eq 3 ] || { echo "expected exit 3 for '$good' with no GPU, got $rc"; exit 1; }
done
echo "ok: $msg"
