// CUDA's atomic functions. They live here, out of line, so each is counted exactly once as an
// atomic of its operand size (inlined, a float atomicAdd would show as a compare-and-swap loop)
// and so that a thread spinning on one lets the others run.

#include <atomic>

#include "cuda_emu/device.hpp"
#include "cuda_emu/recorder.hpp"
#include "cuda_emu/scheduler.hpp"

#if defined(MEMWALL_EMU_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace {

// Runs op on an atomic_ref to *address (relaxed, like CUDA's atomics) and returns what it
// returns. For ThreadSanitizer an atomic both releases and acquires its address, so code that
// synchronises through atomics and __threadfence is not reported.
template <class T, class Op>
T atomic(T* address, const void* site, Op op) {
    memwall::emu::detail::record_atomic(address, sizeof(T), site);
#if defined(MEMWALL_EMU_TSAN)
    __tsan_release(address);
#endif
    const T old = op(std::atomic_ref<T>(*address));
#if defined(MEMWALL_EMU_TSAN)
    __tsan_acquire(address);
#endif
    memwall::emu::detail::after_atomic(false);
    return old;
}

// Replaces the value by next(old) with a compare-and-swap loop; returns the old value.
template <class T, class Next>
T update(std::atomic_ref<T> r, Next next) {
    T old = r.load(std::memory_order_relaxed);
    while (!r.compare_exchange_weak(old, next(old), std::memory_order_relaxed)) {}
    return old;
}

template <class T>
T cas(T* address, T compare, T val, const void* site) {
    memwall::emu::detail::record_atomic(address, sizeof(T), site);
#if defined(MEMWALL_EMU_TSAN)
    __tsan_release(address);
#endif
    T old = compare;
    std::atomic_ref<T>(*address).compare_exchange_strong(old, val, std::memory_order_relaxed);
#if defined(MEMWALL_EMU_TSAN)
    __tsan_acquire(address);
#endif
    memwall::emu::detail::after_atomic(old != compare);
    return old;
}

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

#define MEMWALL_EMU_SITE __builtin_return_address(0)

// The arithmetic ones wrap around, as CUDA's do (std::atomic_ref's fetch_add on integers too).
#define MEMWALL_EMU_FETCH(fn, T, method)                                                                         \
    T fn(T* address, T val) {                                                                                    \
        return atomic(address, MEMWALL_EMU_SITE, [&](std::atomic_ref<T> r) { return r.method(val, kRelaxed); }); \
    }

MEMWALL_EMU_FETCH(atomicAdd, int, fetch_add)
MEMWALL_EMU_FETCH(atomicAdd, unsigned, fetch_add)
MEMWALL_EMU_FETCH(atomicAdd, unsigned long long, fetch_add)
MEMWALL_EMU_FETCH(atomicAdd, float, fetch_add)
MEMWALL_EMU_FETCH(atomicAdd, double, fetch_add)
MEMWALL_EMU_FETCH(atomicSub, int, fetch_sub)
MEMWALL_EMU_FETCH(atomicSub, unsigned, fetch_sub)
MEMWALL_EMU_FETCH(atomicExch, int, exchange)
MEMWALL_EMU_FETCH(atomicExch, unsigned, exchange)
MEMWALL_EMU_FETCH(atomicExch, unsigned long long, exchange)
MEMWALL_EMU_FETCH(atomicExch, float, exchange)
MEMWALL_EMU_FETCH(atomicAnd, int, fetch_and)
MEMWALL_EMU_FETCH(atomicAnd, unsigned, fetch_and)
MEMWALL_EMU_FETCH(atomicAnd, unsigned long long, fetch_and)
MEMWALL_EMU_FETCH(atomicOr, int, fetch_or)
MEMWALL_EMU_FETCH(atomicOr, unsigned, fetch_or)
MEMWALL_EMU_FETCH(atomicOr, unsigned long long, fetch_or)
MEMWALL_EMU_FETCH(atomicXor, int, fetch_xor)
MEMWALL_EMU_FETCH(atomicXor, unsigned, fetch_xor)
MEMWALL_EMU_FETCH(atomicXor, unsigned long long, fetch_xor)

#define MEMWALL_EMU_UPDATE(fn, T, next)                                                              \
    T fn(T* address, T val) {                                                                        \
        return atomic(address, MEMWALL_EMU_SITE,                                                     \
                      [&](std::atomic_ref<T> r) { return update(r, [&](T old) { return next; }); }); \
    }

MEMWALL_EMU_UPDATE(atomicMin, int, old < val ? old : val)
MEMWALL_EMU_UPDATE(atomicMin, unsigned, old < val ? old : val)
MEMWALL_EMU_UPDATE(atomicMin, long long, old < val ? old : val)
MEMWALL_EMU_UPDATE(atomicMin, unsigned long long, old < val ? old : val)
MEMWALL_EMU_UPDATE(atomicMax, int, old > val ? old : val)
MEMWALL_EMU_UPDATE(atomicMax, unsigned, old > val ? old : val)
MEMWALL_EMU_UPDATE(atomicMax, long long, old > val ? old : val)
MEMWALL_EMU_UPDATE(atomicMax, unsigned long long, old > val ? old : val)
MEMWALL_EMU_UPDATE(atomicInc, unsigned, old >= val ? 0u : old + 1)
MEMWALL_EMU_UPDATE(atomicDec, unsigned, (old == 0 || old > val) ? val : old - 1)

unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short val) {
    return cas(address, compare, val, MEMWALL_EMU_SITE);
}
int atomicCAS(int* address, int compare, int val) { return cas(address, compare, val, MEMWALL_EMU_SITE); }
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned val) {
    return cas(address, compare, val, MEMWALL_EMU_SITE);
}
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long val) {
    return cas(address, compare, val, MEMWALL_EMU_SITE);
}
