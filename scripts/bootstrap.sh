#!/usr/bin/env bash
# Installs what memwall needs from Debian's archive, and only what is missing (idempotent).
# Optional parts are skipped by the build when absent: CUDA (the toolkit in /usr/local/cuda).
# Qt 6 (for memwall-gui and `memwall plot`) is in the list, so bootstrapped machines build it.
set -euo pipefail

packages=(
  build-essential cmake git pkg-config
  libsqlite3-dev sqlite3
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libbenchmark-dev libgtest-dev
  zlib1g-dev
  # The conv family's GEMM and its CPU peer: OpenBLAS built for OpenMP (the same runtime as
  # memwall's kernels, so their threads do not oversubscribe the cores) and oneDNN.
  libopenblas-openmp-dev libdnnl-dev
  # The spgemm family's CPU peer, SuiteSparse:GraphBLAS (OpenMP too).
  libgraphblas-dev
  # The kv_offload family's asynchronous reads of its slow tier.
  liburing-dev
  libboost-context-dev
  qt6-base-dev qt6-svg-dev libgl-dev
  # The fuzz preset (fuzz/README.md): clang, its libFuzzer and sanitizer runtimes (libclang-rt-14-dev,
  # only recommended by clang) and its OpenMP runtime.
  clang libclang-rt-dev libomp-dev
  # The format check (cmake/CheckFormat.cmake): clang-format 14, the version .clang-format is kept with.
  clang-format
  # The Slurm test (tests/cli/slurm_test.sh) starts a one-node cluster on localhost.
  slurmctld slurmd slurm-client munge
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "bootstrap: missing packages: ${missing[*]}" >&2
  echo "bootstrap: run as root, or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
