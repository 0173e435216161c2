// How cuda-emu sees memory accesses: emulated kernel sources are compiled with ThreadSanitizer's
// instrumentation (-fsanitize=thread, see cmake/MemwallCudaEmu.cmake) but linked without its
// runtime; these functions take its place and count the accesses that fall inside the arena
// (global memory) or shared memory.
//
// Why this instrumentation: GCC calls it for every load and store left after scalar
// optimisation (the calls keep such loops from being vectorised), with the size (1-16 bytes,
// a range for larger aggregates), and replaces atomics by calls that say what they do. GCC's
// (kernel-)address sanitizer drops the check of a store to an address just loaded (y[i] = a * x[i]
// + y[i] would count no store), and clang's -fsanitize-coverage=trace-loads,trace-stores skips
// vector accesses wider than 16 bytes and memcpy intrinsics.
//
// An access is the instruction's: __builtin_return_address(0) names the access site, which
// the recorder uses to group the lanes of a warp into requests.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cuda_emu/recorder.hpp"

namespace {

using memwall::emu::detail::AccessKind;

inline void on_access(const volatile void* p, std::size_t bytes, AccessKind kind, void* site) {
    memwall::emu::detail::hooks_called = true;
    memwall::emu::detail::record_access(p, bytes, kind, reinterpret_cast<std::uintptr_t>(site));
}

}  // namespace

#define MEMWALL_EMU_ACCESS(name, bytes, kind) \
    extern "C" void name(void* p) { on_access(p, bytes, kind, __builtin_return_address(0)); }

#define MEMWALL_EMU_SIZES(prefix, kind)    \
    MEMWALL_EMU_ACCESS(prefix##1, 1, kind) \
    MEMWALL_EMU_ACCESS(prefix##2, 2, kind) \
    MEMWALL_EMU_ACCESS(prefix##4, 4, kind) \
    MEMWALL_EMU_ACCESS(prefix##8, 8, kind) \
    MEMWALL_EMU_ACCESS(prefix##16, 16, kind)

MEMWALL_EMU_SIZES(__tsan_read, AccessKind::load)
MEMWALL_EMU_SIZES(__tsan_write, AccessKind::store)
MEMWALL_EMU_SIZES(__tsan_unaligned_read, AccessKind::load)
MEMWALL_EMU_SIZES(__tsan_unaligned_write, AccessKind::store)

extern "C" void __tsan_read_range(void* p, unsigned long bytes) {
    on_access(p, bytes, AccessKind::load, __builtin_return_address(0));
}
extern "C" void __tsan_write_range(void* p, unsigned long bytes) {
    on_access(p, bytes, AccessKind::store, __builtin_return_address(0));
}
// Virtual calls read an object's vtable pointer; constructors write it.
extern "C" void __tsan_vptr_read(void** p) { on_access(p, sizeof *p, AccessKind::load, __builtin_return_address(0)); }
extern "C" void __tsan_vptr_update(void** p, void*) {
    on_access(p, sizeof *p, AccessKind::store, __builtin_return_address(0));
}
// Each instrumented translation unit calls it from a constructor; nothing to set up.
extern "C" void __tsan_init() {}

// Atomics: the instrumentation replaces each atomic operation by one of these, which performs
// it (always sequentially consistent, at least as strong as asked) and counts it. Loads and
// stores count as such, read-modify-writes as atomics.
#define MEMWALL_EMU_ATOMICS(bits, T)                                                                   \
    extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int) {                                \
        on_access(a, sizeof(T), AccessKind::load, __builtin_return_address(0));                        \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                  \
    extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                             \
        on_access(a, sizeof(T), AccessKind::store, __builtin_return_address(0));                       \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                      \
    }                                                                                                  \
    MEMWALL_EMU_RMW(bits, T, exchange, __atomic_exchange_n)                                            \
    MEMWALL_EMU_RMW(bits, T, fetch_add, __atomic_fetch_add)                                            \
    MEMWALL_EMU_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                            \
    MEMWALL_EMU_RMW(bits, T, fetch_and, __atomic_fetch_and)                                            \
    MEMWALL_EMU_RMW(bits, T, fetch_or, __atomic_fetch_or)                                              \
    MEMWALL_EMU_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                            \
    MEMWALL_EMU_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                          \
    extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) { \
        on_access(a, sizeof(T), AccessKind::atomic, __builtin_return_address(0));                      \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
    }                                                                                                  \
    extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {   \
        on_access(a, sizeof(T), AccessKind::atomic, __builtin_return_address(0));                      \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
    }                                                                                                  \
    extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {       \
        on_access(a, sizeof(T), AccessKind::atomic, __builtin_return_address(0));                      \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
        return c;                                                                                      \
    }

#define MEMWALL_EMU_RMW(bits, T, op, builtin)                                     \
    extern "C" T __tsan_atomic##bits##_##op(volatile T* a, T v, int) {            \
        on_access(a, sizeof(T), AccessKind::atomic, __builtin_return_address(0)); \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                   \
    }

MEMWALL_EMU_ATOMICS(8, std::uint8_t)
MEMWALL_EMU_ATOMICS(16, std::uint16_t)
MEMWALL_EMU_ATOMICS(32, std::uint32_t)
MEMWALL_EMU_ATOMICS(64, std::uint64_t)

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
