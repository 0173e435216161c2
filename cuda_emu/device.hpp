// The CUDA device language for host compilers: qualifiers, built-in variables, barriers, warp
// intrinsics, atomics and shared memory, so a kernel .cuh compiles unchanged into a CPU
// program that cuda-emu runs (one fiber per CUDA thread, see cuda_emu/README.md).
#pragma once

#if defined(__CUDACC__)
#error "cuda_emu/device.hpp is for host compilers: include cuda_emu/cuda.hpp"
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <version>
#if defined(__cpp_lib_source_location)
#include <source_location>
#endif

#include "cuda_emu/vector_types.hpp"

// Defined in emulated builds only, for the rare kernel that must tell (GPU-only variants).
#define MEMWALL_CUDA_EMU 1

#define __global__
#define __device__
#define __host__
#define __constant__
#define __grid_constant__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)

// Static shared memory: one object per variable, shared by every thread of the running block.
// The section lets the runtime poison all of them between blocks and count their accesses. GCC
// ignores it for static locals of function templates (GCC bug 70435; Clang does not): those
// are neither poisoned nor counted.
#define __shared__ __attribute__((section("memwall_emu_shared"))) static

// Dynamic shared memory (the size is LaunchConfig::dynamic_shared): `extern __shared__` under
// nvcc; write MEMWALL_DYNAMIC_SHARED(float, tile); then use tile[i].
#define MEMWALL_DYNAMIC_SHARED(T, name) T* name = reinterpret_cast<T*>(::memwall::emu::detail::dynamic_shared)

namespace memwall::emu::detail {

// Where an intrinsic is called, for error messages (clang 14 has no std::source_location).
struct Site {
    const char* file = "";
    unsigned line = 0;
    unsigned column = 0;
#if defined(__cpp_lib_source_location)
    static constexpr Site here(std::source_location s = std::source_location::current()) {
        return {s.file_name(), s.line(), s.column()};
    }
#else
    static constexpr Site here(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE(),
                               unsigned column = __builtin_COLUMN()) {
        return {file, line, column};
    }
#endif
};

// Set by the scheduler before it resumes a thread (all threads of a launch run on one OS thread).
extern constinit thread_local uint3 thread_idx;
extern constinit thread_local uint3 block_idx;
extern constinit thread_local dim3 block_dim;
extern constinit thread_local dim3 grid_dim;
extern constinit thread_local unsigned char* dynamic_shared;

enum class BarrierOp : std::uint8_t { sync, count, all, any };
// Waits until the block arrives; returns the count/and/or of the predicates.
int block_barrier(BarrierOp op, int predicate, const Site& site);

enum class WarpOp : std::uint8_t { sync, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, active, exchange };
// Waits for the lanes of mask; returns this lane's result (a value's bytes, or a mask/bool).
std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, long long arg, int width,
                              const Site& site);

void fence();
void nanosleep(unsigned ns);
long long clock_ns();
[[noreturn]] void trap(const Site& site);

template <class T>
std::uint64_t to_bits(const T& v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                  "warp shuffles move trivially copyable values of at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}

template <class T>
T from_bits(std::uint64_t bits) {
    T v;
    std::memcpy(static_cast<void*>(&v), &bits, sizeof v);
    return v;
}

// By value: reading the thread-local variable directly (a reference to it would get a null
// check under UBSan, which GCC 12 gets wrong once the linker relaxes the TLS access).
inline uint3 thread_index() { return thread_idx; }
inline uint3 block_index() { return block_idx; }
inline dim3 block_dims() { return block_dim; }
inline dim3 grid_dims() { return grid_dim; }

}  // namespace memwall::emu::detail

#define threadIdx (::memwall::emu::detail::thread_index())
#define blockIdx (::memwall::emu::detail::block_index())
#define blockDim (::memwall::emu::detail::block_dims())
#define gridDim (::memwall::emu::detail::grid_dims())
inline constexpr int warpSize = 32;

// Block barriers. Every thread of the block must reach the same __syncthreads call (a
// different call site is reported as an error, and so is a thread that returned, unless
// BarrierRule::exited_threads_arrive).
inline void __syncthreads(::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    ::memwall::emu::detail::block_barrier(::memwall::emu::detail::BarrierOp::sync, 0, site);
}
inline int __syncthreads_count(int predicate,
                               ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    return ::memwall::emu::detail::block_barrier(::memwall::emu::detail::BarrierOp::count, predicate, site);
}
inline int __syncthreads_and(int predicate, ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    return ::memwall::emu::detail::block_barrier(::memwall::emu::detail::BarrierOp::all, predicate, site);
}
inline int __syncthreads_or(int predicate, ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    return ::memwall::emu::detail::block_barrier(::memwall::emu::detail::BarrierOp::any, predicate, site);
}

// Warp intrinsics: warps of 32 lanes, the _sync forms only. The lanes named in mask meet in the
// same intrinsic with the same mask; reading a lane that does not take part is an error.
inline void __syncwarp(unsigned mask = 0xffffffffu,
                       ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    ::memwall::emu::detail::warp_collective(::memwall::emu::detail::WarpOp::sync, mask, 0, 0, 32, site);
}
template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32,
              ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return d::from_bits<T>(d::warp_collective(d::WarpOp::shfl, mask, d::to_bits(var), src_lane, width, site));
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                 ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return d::from_bits<T>(d::warp_collective(d::WarpOp::shfl_up, mask, d::to_bits(var), delta, width, site));
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                   ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return d::from_bits<T>(d::warp_collective(d::WarpOp::shfl_down, mask, d::to_bits(var), delta, width, site));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                  ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return d::from_bits<T>(d::warp_collective(d::WarpOp::shfl_xor, mask, d::to_bits(var), lane_mask, width, site));
}
inline unsigned __ballot_sync(unsigned mask, int predicate,
                              ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return static_cast<unsigned>(d::warp_collective(d::WarpOp::ballot, mask, predicate != 0, 0, 32, site));
}
inline int __any_sync(unsigned mask, int predicate,
                      ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return static_cast<int>(d::warp_collective(d::WarpOp::any, mask, predicate != 0, 0, 32, site));
}
inline int __all_sync(unsigned mask, int predicate,
                      ::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return static_cast<int>(d::warp_collective(d::WarpOp::all, mask, predicate != 0, 0, 32, site));
}
// Meets every lane of the warp that has not returned and gives the set that called it: the
// converged lanes, as on a GPU. Lanes of a divergent branch that do not return meet elsewhere,
// which emulation reports as a deadlock: divergent code must pass explicit masks.
inline unsigned __activemask(::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    namespace d = ::memwall::emu::detail;
    return static_cast<unsigned>(d::warp_collective(d::WarpOp::active, 0xffffffffu, 0, 0, 32, site));
}

inline void __threadfence() { ::memwall::emu::detail::fence(); }
inline void __threadfence_block() { ::memwall::emu::detail::fence(); }
inline void __threadfence_system() { ::memwall::emu::detail::fence(); }
// Lets the other threads run: a spinning thread should sleep, as on a GPU.
inline void __nanosleep(unsigned ns) { ::memwall::emu::detail::nanosleep(ns); }
inline long long clock64() { return ::memwall::emu::detail::clock_ns(); }
[[noreturn]] inline void __trap(::memwall::emu::detail::Site site = ::memwall::emu::detail::Site::here()) {
    ::memwall::emu::detail::trap(site);
}

// Loads and stores with cache hints are plain accesses here (and counted as such).
template <class T>
T __ldg(const T* p) {
    return *p;
}
template <class T>
T __ldca(const T* p) {
    return *p;
}
template <class T>
T __ldcg(const T* p) {
    return *p;
}
template <class T>
T __ldcs(const T* p) {
    return *p;
}
template <class T>
T __ldlu(const T* p) {
    return *p;
}
template <class T>
T __ldcv(const T* p) {
    return *p;
}
template <class T>
void __stwb(T* p, T v) {
    *p = v;
}
template <class T>
void __stcg(T* p, T v) {
    *p = v;
}
template <class T>
void __stcs(T* p, T v) {
    *p = v;
}
template <class T>
void __stwt(T* p, T v) {
    *p = v;
}

// Atomics on global or shared memory (cuda_emu/atomics.cpp): each counts as one atomic access
// of its operand size; they return the old value, like CUDA's.
int atomicAdd(int* address, int val);
unsigned atomicAdd(unsigned* address, unsigned val);
unsigned long long atomicAdd(unsigned long long* address, unsigned long long val);
float atomicAdd(float* address, float val);
double atomicAdd(double* address, double val);
int atomicSub(int* address, int val);
unsigned atomicSub(unsigned* address, unsigned val);
int atomicExch(int* address, int val);
unsigned atomicExch(unsigned* address, unsigned val);
unsigned long long atomicExch(unsigned long long* address, unsigned long long val);
float atomicExch(float* address, float val);
int atomicMin(int* address, int val);
unsigned atomicMin(unsigned* address, unsigned val);
long long atomicMin(long long* address, long long val);
unsigned long long atomicMin(unsigned long long* address, unsigned long long val);
int atomicMax(int* address, int val);
unsigned atomicMax(unsigned* address, unsigned val);
long long atomicMax(long long* address, long long val);
unsigned long long atomicMax(unsigned long long* address, unsigned long long val);
unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val);
int atomicCAS(int* address, int compare, int val);
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned val);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long val);
int atomicAnd(int* address, int val);
unsigned atomicAnd(unsigned* address, unsigned val);
unsigned long long atomicAnd(unsigned long long* address, unsigned long long val);
int atomicOr(int* address, int val);
unsigned atomicOr(unsigned* address, unsigned val);
unsigned long long atomicOr(unsigned long long* address, unsigned long long val);
int atomicXor(int* address, int val);
unsigned atomicXor(unsigned* address, unsigned val);
unsigned long long atomicXor(unsigned long long* address, unsigned long long val);
// ((old >= val) ? 0 : old + 1) and (((old == 0) || (old > val)) ? val : old - 1)
unsigned atomicInc(unsigned* address, unsigned val);
unsigned atomicDec(unsigned* address, unsigned val);

#include "cuda_emu/math.hpp"
