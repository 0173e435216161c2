#!/usr/bin/env bash
# fuzz_short.sh SOURCE_DIR SECONDS TARGET...: builds the fuzz preset (clang, libFuzzer,
# ASan+UBSan) and fuzzes each target for SECONDS from its seed corpus and its regressions. Fails
# when any target meets a crash, leak, sanitizer report, timeout or out-of-memory, leaving the
# input that caused it under build/fuzz/short/<target>/ to be replayed.
set -euo pipefail
src=$1
seconds=$2
shift 2

if ! command -v clang++ >/dev/null; then
  echo "fuzz_short: clang++ not found; scripts/bootstrap.sh installs it (package clang)" >&2
  exit 1
fi
# clang prints the bare name back when it has no such file.
runtime=$(clang++ -print-file-name="libclang_rt.fuzzer-$(uname -m).a" 2>/dev/null || true)
if [ ! -f "$runtime" ]; then
  echo "fuzz_short: clang's libFuzzer runtime not found; scripts/bootstrap.sh installs it (package libclang-rt-dev)" >&2
  exit 1
fi

cd "$src"
start=$(date +%s)
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
echo "fuzz_short: fuzz build took $(( $(date +%s) - start )) s"

status=0
for t in "$@"; do
  work=build/fuzz/short/$t
  rm -rf "$work"
  mkdir -p "$work/corpus"
  seeds=tests/data/fuzz/$t
  dirs=("$seeds")
  [ -d "$seeds/regressions" ] && dirs+=("$seeds/regressions")
  # New inputs go to the first folder, a scratch copy, so the seeds stay as committed.
  if ! build/fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$work/" "$work/corpus" "${dirs[@]}" >"$work/log" 2>&1; then
    echo "fuzz_short: $t FAILED; input under $work/, log:" >&2
    tail -n 40 "$work/log" >&2
    status=1
  else
    echo "fuzz_short: $t ok: $(grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/log" | tr '\n' ' ')"
  fi
done
exit $status
