#!/usr/bin/env bash
# memwall's GPU path on a GPU machine, from the unpacked kit (build-bundle.sh): writes the results
# database and a Markdown report to OUTDIR (docs/gpu.md).
#   ./run-on-gpu.sh [--within SECONDS] OUTDIR [PART...]
# PARTs (default all, in this order): device tests run tune sdpa lora convtc ncu compare (the slowest, most of
# it cuda-emu on the CPU, last). run:FAMILY,... runs only those families, in that order (those
# not yet seen to finish on a GPU first, say). A later call with the same OUTDIR adds to its
# database and report, so the parts can be split across calls.
# Exit status: 0 when it ran (the report says what failed), 2 on a usage error, 3 when there is no
# GPU here (nothing is run). Each step has a time limit and appends to the report as it ends, so a
# run cut short still leaves what it measured. --within SECONDS fits the whole run into a lease:
# each step's limit is cut to the time left (less a reserve for the report), and a step with too
# little left is skipped and said so.
set -uo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
usage="usage: run-on-gpu.sh [--within SECONDS] OUTDIR [device|tests|run[:FAMILY,...]|compare|ncu|sdpa|lora|convtc|tune ...]"
within=0
if [ "${1:-}" = --within ]; then
  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "run-on-gpu: --within takes a whole number of seconds" >&2; exit 2; }
  within="$2"
  shift 2
fi
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
out="$1"
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(device tests run tune sdpa lora convtc ncu compare)
for p in "${parts[@]}"; do
  [[ "$p" =~ ^(device|tests|run|compare|ncu|sdpa|lora|convtc|tune|run:[a-z_]+(,[a-z_]+)*)$ ]] ||
    { echo "run-on-gpu: unknown part '$p'" >&2; exit 2; }
done
# A GPU is a line "GPU 0: ..." from an nvidia-smi that succeeds (a broken driver prints its
# failure on stdout).
gpus="$(nvidia-smi -L 2>/dev/null)" || gpus=""
if ! grep '^GPU ' <<< "$gpus" > /dev/null; then
  echo "run-on-gpu: no NVIDIA GPU here (nvidia-smi finds none); nothing was run" >&2
  exit 3
fi
mkdir -p "$out/logs" || exit 2

# Libraries: the kit's, then CUDA's from the toolkit and from PyTorch's nvidia-* packages.
libs="$kit/lib"
for d in /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI/lib64; do [ -d "$d" ] && libs="$libs:$d"; done
py="$(command -v python3 || true)"
if [ -n "$py" ]; then
  nv="$("$py" -c 'import glob, site; print(":".join(d for p in site.getsitepackages() for d in sorted(glob.glob(p + "/nvidia/*/lib"))))' 2>/dev/null)"
  [ -n "$nv" ] && libs="$libs:$nv"
fi
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
report="$out/report.md"
section() { printf '\n## %s\n\n' "$1" >> "$report"; }
fenced() { { echo '```'; cat; echo '```'; } >> "$report"; }
# step NAME SECONDS COMMAND...: runs it with a limit, its output to logs/NAME.log; says how it ended.
# Under --within, the limit is at most the time left less 15 s for the report; with under 20 s
# left the step is skipped (status 124, as if it had hit its limit).
step() {
  local name="$1" limit="$2"; shift 2
  local t0=$SECONDS
  if [ "$within" -gt 0 ]; then
    local left=$((within - SECONDS - 15))
    if [ "$left" -lt 5 ]; then
      echo "$name: skipped, the run's ${within} s were spent" >> "$out/logs/steps.txt"
      : > "$out/logs/$name.log"
      return 124
    fi
    [ "$left" -lt "$limit" ] && limit="$left"
  fi
  timeout --kill-after=10 "$limit" "$@" > "$out/logs/$name.log" 2>&1
  local rc=$?
  local how="exit $rc"
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && how="stopped at its ${limit} s limit"
  echo "$name: $how after $((SECONDS - t0)) s" >> "$out/logs/steps.txt"
  return $rc
}

[ -f "$report" ] || {
  echo "# memwall on a GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo
  echo "$(date -u +%Y-%m-%d), memwall $(cat "$kit/REVISION"). Every figure below was measured on this GPU by this script."
} > "$report"

part_device() {
section "Device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.limit,clocks_event_reasons.active \
  --format=csv 2>&1 | fenced
nvidia-smi -q 2>/dev/null | grep -E "CUDA Version|Persistence Mode|Compute Mode|Product Name|MIG Mode|RmProfilingAdminOnly" | sed 's/^ *//' | fenced
grep -h RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null | fenced  # 1: counters need root
lscpu | grep -E "Model name|^CPU\(s\)" | fenced
}

part_tests() {
section "GPU tests (every CUDA variant against the reference, on the device)"
for t in "$kit"/tests/*; do
  name="$(basename "$t")"
  step "$name" 240 "$t"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\] .* ran" "$out/logs/$name.log" | sed "s/^/$name: /"
done | fenced
}

part_run() {
# Families with CUDA variants (or those given), at their default sizes, with events, L2 flush and
# CUPTI's counters.
local families=(stream attention conv lora spgemm kv_offload)
[ $# -gt 0 ] && IFS=, read -r -a families <<< "$1"
section "memwall run --backend cuda"
for f in "${families[@]}"; do
  step "run-$f" 300 "$kit/bin/memwall" --db "$out/memwall.db" run -f "$f" -b cuda -q --tag kit=cuda --case-timeout 60
  tail -n 40 "$out/logs/run-$f.log"
done | fenced
}

part_compare() {
# The same cases on cuda-emu and cuda: emu's sizes, given to both backends.
section "CUPTI's counters beside cuda-emu's, same cases"
compare=("$kit/bin/memwall" --db "$out/memwall.db" run -b cuda-emu,cuda -q --tag kit=compare -f)
step compare-stream 120 "${compare[@]}" stream -a n=4096,65536,16777216
step compare-attention 180 "${compare[@]}" attention -v naive,flash -a heads=2 -a head_dim=64 -a seq_q=128,256 -a seq_k=128,256
step compare-conv 120 "${compare[@]}" conv -a layer=custom -a batch=1 -a C=3,16 -a H=16 -a W=16 -a K=16 -a R=3 -a S=3 -a stride=1,2 -a pad=1
step compare-lora 120 "${compare[@]}" lora -a shape=custom -a M=64 -a K=128 -a N=128 -a r=16 -a adapters=1,3 -a dtype=fp32,bf16
step compare-spgemm 120 "${compare[@]}" spgemm -a scale=7 -a nx=5
[ -n "$py" ] && "$py" "$kit/counters_vs_emu.py" "$out/memwall.db" >> "$report" 2>&1
}

part_ncu() {
# Nsight Compute on one kernel, as a cross-check of memwall's own collection of the same case:
# the checked run's launch (-c 1). ncu serialises launches, so the timed runs behind the cold
# timer's blocking kernel then fail under it; their times come from the step before.
section "ncu cross-check (stream triad, 2^26 floats)"
triad=(-f stream -v grid_stride -b cuda -a op=triad -a n=67108864 --no-isolate -q)
step ncu-memwall 120 "$kit/bin/memwall" --db "$out/memwall.db" run "${triad[@]}" --tag kit=ncu-crosscheck
if command -v ncu >/dev/null; then
  step ncu 300 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,gpu__time_duration.sum \
    -k regex:stream_kernel -c 1 --csv "$kit/bin/memwall" --db "$out/ncu.db" run "${triad[@]}" --metrics none \
    --warmup 0 --min-samples 3 --min-time 0
  grep -E '^"' "$out/logs/ncu.log" | head -20 | fenced
  [ -n "$py" ] && "$py" "$kit/counters_vs_emu.py" "$out/memwall.db" --tag kit=ncu-crosscheck >> "$report" 2>&1
else
  echo "ncu is not on the PATH here." >> "$report"
fi
}

part_sdpa() {
# The attention peer: PyTorch SDPA (FlashAttention-2 and cuDNN backends) at memwall's shapes.
section "memwall flash and flash_tc vs PyTorch SDPA"
step run-sdpa 300 "$kit/bin/memwall" --db "$out/memwall.db" run -f attention -v flash -b cuda -a dtype=bf16 -q --tag kit=sdpa
# flash_tc at issue 42's shapes (bf16, batch 4, 16 heads), every compiled tile.
step run-sdpa-tc 600 "$kit/bin/memwall" --db "$out/memwall.db" run -f attention -v flash_tc -b cuda -a batch=4 \
  -a heads=16 -a head_dim=64,128 -a seq_q=4096,16384 -a seq_k=4096,16384 -a Br=64,128 -a Bc=64,128 -a warps=4,8 \
  -a stages=2,3 -q --tag kit=sdpa --case-timeout 120
if [ -n "$py" ]; then
  step sdpa 300 "$py" "$kit/sdpa_peer.py" "$out/memwall.db"
  cat "$out/logs/sdpa.log" >> "$report"
fi
}

part_lora() {
# The lora peer: memwall's tensor-core variants and cublas_unfused against cuBLAS's bf16 GEMM and
# PyTorch's LoRA at LoRAFusion's K = N = 4096, r = 16, M = 2048 and 8192 (issue 45).
section "memwall lora *_tc vs cuBLAS bf16 GEMM and PyTorch LoRA"
step run-lora-tc 540 "$kit/bin/memwall" --db "$out/memwall.db" run -f lora -v base_tc,fused_tc,unfused_tc,cublas_unfused \
  -b cuda -a shape=lorafusion4096 -a M=2048,8192 -a dtype=bf16 -a BM=128 -a BN=128,256 -a warps=8 -a stages=3,4 \
  -q --tag kit=lora --case-timeout 120
tail -n 30 "$out/logs/run-lora-tc.log" | fenced
if [ -n "$py" ]; then
  step lora-peer 300 "$py" "$kit/lora_peer.py" "$out/memwall.db"
  cat "$out/logs/lora-peer.log" >> "$report"
fi
}

part_convtc() {
# The conv peer: cuDNN through PyTorch's conv2d, same math mode, at the im2win paper's conv5-conv12,
# batch 32 (issue 45 asks implicit_gemm_tc for <= 1.5x cuDNN's time).
section "memwall implicit_gemm_tc and im2win_tc vs cuDNN (PyTorch conv2d)"
step run-convtc 600 "$kit/bin/memwall" --db "$out/memwall.db" run -f conv -v implicit_gemm_tc,im2win_tc -b cuda \
  -a layer=conv5,conv6,conv7,conv8,conv9,conv10,conv11,conv12 -a batch=32 -a dtype=bf16,tf32 -a BM=64,128 \
  -a BN=64,128 -a stages=3,4 -q --tag kit=convtc --case-timeout 120
if [ -n "$py" ]; then
  step convtc 300 "$py" "$kit/conv_peer.py" "$out/memwall.db"
  cat "$out/logs/convtc.log" >> "$report"
fi
}

part_tune() {
# Live tuning on the GPU against exhaustive search of the same space.
section "memwall tune live: guided against exhaustive"
space=(-f attention -v flash -b cuda -a batch=1 -a heads=8 -a seq_q=2048 -a seq_k=2048 -a head_dim=64 -a causal=0 -a dtype=bf16)
step tune-exhaustive 300 "$kit/bin/memwall" --db "$out/memwall.db" tune "${space[@]}" --strategy exhaustive --budget 0 -q
# guided with no budget: its stopping rule ends the search, three seeds.
for seed in 1 2 3; do
  step "tune-guided-$seed" 120 "$kit/bin/memwall" --db "$out/memwall.db" tune "${space[@]}" --strategy guided --seed "$seed" -q
done
for s in tune-exhaustive tune-guided-1 tune-guided-2 tune-guided-3; do echo "### $s"; tail -n 12 "$out/logs/$s.log"; done | fenced
}

for p in "${parts[@]}"; do
  case "$p" in run:*) part_run "${p#run:}" ;; *) "part_$p" ;; esac
done
section "Steps"
fenced < "$out/logs/steps.txt"
echo "report: $report"
