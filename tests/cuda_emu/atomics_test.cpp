#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "device_buffer.hpp"
#include "tests/cuda_emu/kernels/launchers.hpp"

namespace memwall::emu_test {
namespace {

using namespace cuda_emu;

template <class T>
struct Scalar {
    explicit Scalar(T init) : buffer(std::vector<T>{init}) {}
    T value() const { return buffer.download()[0]; }
    DeviceBuffer<T> buffer;
};

TEST(Atomics, EveryFlavourOnEveryType) {
    const int n = 256;
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = i % 50 + 1;
    DeviceBuffer<int> values(v);
    Scalar<int> int_sum(0), int_sub(1000000), int_min(1 << 30), int_max(-5), cas_sum(0);
    Scalar<unsigned> uint_sum(0), bits_and(~0u), bits_or(0), bits_xor(0), inc(0), dec(0);
    Scalar<unsigned long long> ull_sum(1ull << 40), ull_max(0);
    Scalar<float> float_sum(0), exch(-1);
    Scalar<double> double_sum(0.25);
    const AtomicTargets t{int_sum.buffer.get(),    uint_sum.buffer.get(), ull_sum.buffer.get(), float_sum.buffer.get(),
                          double_sum.buffer.get(), int_sub.buffer.get(),  int_min.buffer.get(), int_max.buffer.get(),
                          ull_max.buffer.get(),    bits_and.buffer.get(), bits_or.buffer.get(), bits_xor.buffer.get(),
                          inc.buffer.get(),        dec.buffer.get(),      cas_sum.buffer.get(), exch.buffer.get()};
    apply_atomics(grid_of(2, 128), values.get(), t);

    const int sum = std::accumulate(v.begin(), v.end(), 0);
    unsigned want_and = ~0u, want_or = 0, want_xor = 0, want_inc = 0, want_dec = 0;
    for (int x : v) {
        want_and &= ~(1u << (x % 32));
        want_or |= 1u << (x % 32);
        want_xor ^= static_cast<unsigned>(x);
        want_inc = want_inc >= 9 ? 0 : want_inc + 1;
        want_dec = (want_dec == 0 || want_dec > 9) ? 9 : want_dec - 1;
    }
    EXPECT_EQ(int_sum.value(), sum);
    EXPECT_EQ(uint_sum.value(), static_cast<unsigned>(sum));
    EXPECT_EQ(ull_sum.value(), (1ull << 40) + static_cast<unsigned long long>(sum));
    EXPECT_EQ(float_sum.value(), static_cast<float>(sum));
    EXPECT_EQ(double_sum.value(), 0.25 + sum);
    EXPECT_EQ(int_sub.value(), 1000000 - sum);
    EXPECT_EQ(int_min.value(), 1);
    EXPECT_EQ(int_max.value(), 50);
    EXPECT_EQ(ull_max.value(), 50u);
    EXPECT_EQ(bits_and.value(), want_and);
    EXPECT_EQ(bits_or.value(), want_or);
    EXPECT_EQ(bits_xor.value(), want_xor);
    EXPECT_EQ(inc.value(), want_inc);
    EXPECT_EQ(dec.value(), want_dec);
    EXPECT_EQ(cas_sum.value(), sum);
    EXPECT_NE(std::find(v.begin(), v.end(), static_cast<int>(exch.value())), v.end());

    // Each thread: 16 atomics (76 bytes) and 2 loads; a warp's lanes share each address.
    const emu::TrafficStats s = emu::last_traffic();
    EXPECT_EQ(s.atomic.accesses, 16u * n);
    EXPECT_EQ(s.atomic.bytes, 76u * n);
    EXPECT_EQ(s.atomic.requests, 16u * n / 32);
    EXPECT_EQ(s.atomic.sectors, 16u * n / 32);
    EXPECT_EQ(s.load.bytes, 8u * n);
}

TEST(Atomics, ASpinLockLetsTheThreadsOfABlockTakeTurns) {
    Scalar<int> lock(0), counter(0);
    locked_increment(grid_of(2, 64), lock.buffer.get(), counter.buffer.get());
    EXPECT_EQ(counter.value(), 128);
    EXPECT_EQ(lock.value(), 0);
}

TEST(Atomics, Histogram) {
    const int n = 1000, bins = 16;
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 7919) % 1009;
    DeviceBuffer<int> values(v), hist(std::vector<int>(bins, 0));
    histogram(grid_of((n + 127) / 128, 128), values.get(), n, hist.get(), bins);
    std::vector<int> want(bins, 0);
    for (int x : v) ++want[x % bins];
    EXPECT_EQ(hist.download(), want);
    EXPECT_EQ(emu::last_traffic().atomic.accesses, static_cast<std::uint64_t>(n));
}

TEST(Atomics, StdAtomicRefIsCountedThroughTheHooks) {
    Scalar<int> counter(0), flag(0);
    DeviceBuffer<int> seen(64);
    count_with_atomic_ref(grid_of(1, 64), counter.buffer.get(), flag.buffer.get(), seen.get());
    std::vector<int> want(64);
    std::iota(want.begin(), want.end(), 1);
    EXPECT_EQ(seen.download(), want);
    EXPECT_EQ(counter.value(), 64);
    // fetch_add is an atomic; the atomic store and load count as a store and a load.
    const emu::TrafficStats s = emu::last_traffic();
    EXPECT_EQ(s.atomic.accesses, 64u);
    EXPECT_EQ(s.atomic.bytes, 256u);
    EXPECT_EQ(s.load.bytes, 256u);
    EXPECT_EQ(s.store.bytes, 512u);
}

}  // namespace
}  // namespace memwall::emu_test
