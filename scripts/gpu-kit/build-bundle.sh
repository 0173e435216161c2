#!/usr/bin/env bash
# Builds the GPU kit here (a machine with memwall's Debian packages and the CUDA toolkit) for a
# GPU machine that has neither network nor those packages: memwall with the cuda backend, the GPU
# tests, the shared libraries they need that such a machine lacks, and the scripts that run there,
# packed into one relocatable tarball (docs/gpu.md).
#   scripts/gpu-kit/build-bundle.sh [TARBALL]   (default build/gpu-kit/memwall-gpu-kit.tar.xz)
# Code for x86-64-v3 (AVX2 and FMA, which every CPU beside an A100/H100/H200 has) rather than
# -march=native: the GPU machine's CPU is not this one. No GUI, no benchmarks.
# Libraries left out, found on the GPU machine instead: glibc's, libstdc++ and libgcc_s (its
# glibc and GCC are newer than Debian bookworm's), libcuda, and CUDA's large libraries (cuBLAS,
# cuSPARSE and cuDNN, opened at run time or taken from the toolkit or PyTorch's packages there).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build/gpu-kit"
tarball="${1:-$build/memwall-gpu-kit.tar.xz}"
limit=$((64 * 1024 * 1024))

command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "build-bundle: the CUDA toolkit (nvcc) is needed" >&2; exit 2; }
mkdir -p "$build"
cmake -S "$root" -B "$build/cmake" -DCMAKE_BUILD_TYPE=Release -DMEMWALL_NATIVE=OFF -DCMAKE_CXX_FLAGS=-march=x86-64-v3 -DMEMWALL_GUI=OFF \
  -DMEMWALL_BUILD_BENCH=OFF -DMEMWALL_BUILD_TESTS=ON -DMEMWALL_WERROR=ON > "$build/configure.log"
grep -q "cuda: on (.*sm 80, 90)" "$build/configure.log" ||
  { echo "build-bundle: the build has no cuda backend for sm_80 and sm_90 (see $build/configure.log)" >&2; exit 2; }
grep -q "cupti: on" "$build/configure.log" ||
  { echo "build-bundle: the build has no CUPTI (see $build/configure.log)" >&2; exit 2; }
# The GPU tests are the test binaries labelled gpu.
tests=(cuda_gpu_stream_test cuda_gpu_attention_test cuda_gpu_conv_test cuda_gpu_lora_test cuda_gpu_spgemm_test
       cuda_gpu_kv_offload_test cuda_gpu_ceilings_test cuda_gpu_mma_layout_test)
cmake --build "$build/cmake" -j2 --target memwall "${tests[@]}"

bundle="$build/memwall-gpu-kit"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/tests" "$bundle/lib"
cp "$build/cmake/memwall" "$bundle/bin/"
objdump -h "$bundle/bin/memwall" > "$build/sections.txt"
grep -q '\.nv_fatbin' "$build/sections.txt" ||
  { echo "build-bundle: memwall holds no device code (.nv_fatbin)" >&2; exit 1; }
for t in "${tests[@]}"; do cp "$(find "$build/cmake/tests" -name "$t" -type f -perm -u+x | head -1)" "$bundle/tests/"; done
cp "$root/scripts/gpu-kit/run-on-gpu.sh" "$root/scripts/gpu-kit/counters_vs_emu.py" \
   "$root/scripts/gpu-kit/sdpa_peer.py" "$root/scripts/gpu-kit/lora_peer.py" \
   "$root/scripts/gpu-kit/conv_peer.py" "$root/scripts/gpu-kit/peer_kit.py" "$bundle/"
git -C "$root" rev-parse HEAD > "$bundle/REVISION" 2>/dev/null || echo unknown > "$bundle/REVISION"

# Whether a library stays with the GPU machine (see the header).
left_to_the_machine() {
  case "$1" in
    linux-vdso.so.*|ld-linux*|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*) return 0 ;;
    libstdc++.so.*|libgcc_s.so.*|libcuda.so.*|libcublas*|libcusparse*|libcudnn*|libcupti*|libnvidia*) return 0 ;;
  esac
  return 1
}
# Libraries opened at run time (dlopen) that the GPU machine lacks: OpenBLAS for the CPU sgemm.
for lib in libopenblas.so.0; do
  path="$(ldconfig -p | awk -v n="$lib" '$1 == n {print $NF; exit}')"
  [ -n "$path" ] || { echo "build-bundle: $lib is not installed here (scripts/bootstrap.sh)" >&2; exit 2; }
  cp -L "$path" "$bundle/lib/$lib"
done
# The closure of every binary's and library's libraries, as the loader here resolves them, until
# no new one appears (OpenBLAS brings libgfortran, which brings libquadmath).
while :; do
  added=0
  while read -r name path; do
    if ! left_to_the_machine "$name" && [ ! -e "$bundle/lib/$name" ]; then
      cp -L "$path" "$bundle/lib/$name"
      added=1
    fi
  done < <(for f in "$bundle"/bin/* "$bundle"/tests/* "$bundle"/lib/*; do
             LD_LIBRARY_PATH="$bundle/lib" ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
           done | sort -u)
  [ "$added" = 1 ] || break
done

# Relocatable: with LD_LIBRARY_PATH set to the bundle alone, every library a binary needs resolves
# inside it, except those left to the machine.
bad=0
for f in "$bundle"/bin/* "$bundle"/tests/* "$bundle"/lib/*; do
  while read -r name path; do
    if ! left_to_the_machine "$name" && [[ "$path" != "$bundle/lib/"* ]]; then
      echo "build-bundle: $(basename "$f") takes $name from $path, outside the bundle" >&2
      bad=1
    fi
  done < <(LD_LIBRARY_PATH="$bundle/lib" ldd "$f" | awk '$2 == "=>" {print $1, $3}')
done
[ "$bad" = 0 ] || exit 1

tar -C "$build" -cJf "$tarball" "$(basename "$bundle")"
size=$(stat -c %s "$tarball")
echo "bundle: $tarball, $((size / 1024 / 1024)) MiB ($(du -sm "$bundle" | cut -f1) MiB unpacked; $(ls "$bundle/lib" | wc -l) libraries)"
if [ "$size" -ge "$limit" ]; then
  echo "build-bundle: the tarball is over 64 MiB, more than travels to a GPU machine" >&2
  exit 1
fi
