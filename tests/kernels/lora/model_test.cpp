#include <gtest/gtest.h>

#include "kernels/lora/cpu_kernels.hpp"
#include "kernels/lora/models.hpp"
#include "lora_test_support.hpp"

namespace memwall {
namespace {

double counter(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    EXPECT_NE(c, nullptr) << name;
    return c ? c->value : 0.0;
}

MemoryHierarchy hierarchy() {
    MemoryHierarchy mh;
    mh.cpus = 2;
    return mh;
}

TEST(LoraModel, PassesOverXAndYPerVariant) {
    // fp32, M = K = N = 64, r = 16, one adapter: X, W and Y are 16 KiB each.
    const LoraProblem p = LoraProblem::from(lora_test::point_of({64, 64, 64, 16, 1}));
    const double x = 4.0 * 64 * 64, mask = 4.0 * 64 * 2;
    const double base = 3 * x;
    EXPECT_DOUBLE_EQ(counter(lora_model(p, LoraMethod::base, hierarchy()), "flops"), 2.0 * 64 * 64 * 64);
    EXPECT_DOUBLE_EQ(counter(lora_model(p, LoraMethod::base, hierarchy()), "bytes.min"), base);
    // unfused: X read by dropout and by the down-projection, X' written; Y's size four more times
    // (T written, T and Y read, Y written); S twice; A and B once.
    const double s = 4.0 * 64 * 16, ab = 4.0 * 16 * 128;
    const std::vector<Counter> unfused = lora_model(p, LoraMethod::unfused, hierarchy());
    EXPECT_DOUBLE_EQ(counter(unfused, "bytes.min"), base + mask + ab);
    const double rp = static_cast<double>(lora_cpu::padded_rank(16));
    const double sf = 4.0 * 64 * rp, abf = 4.0 * (64 * rp + 16 * 64);
    const std::vector<Counter> fused = lora_model(p, LoraMethod::fused, hierarchy());
    // The outermost level's bytes are the model's whole traffic.
    const auto outer = [](const std::vector<Counter>& cs) {
        double most = 0;
        for (const Counter& c : cs)
            if (c.name.rfind("bytes.", 0) == 0 && c.name != "bytes.min") most = std::max(most, c.value);
        return most;
    };
    EXPECT_DOUBLE_EQ(outer(unfused), base + 3 * x + mask + 2 * s + ab + 4 * x);
    EXPECT_DOUBLE_EQ(outer(fused), base + x + mask + abf + 2 * x);
    EXPECT_DOUBLE_EQ(counter(fused, "workspace.bytes"), sf + 4.0 * 64 * rp);
    EXPECT_DOUBLE_EQ(outer(lora_model(p, LoraMethod::multi_adapter, hierarchy())), outer(fused));
}

TEST(LoraModel, FusedPerAdapterCallsStreamWOncePerAdapter) {
    const LoraProblem p = LoraProblem::from(lora_test::point_of({64, 64, 64, 16, 4}));
    const auto total = [&](LoraMethod m) {
        double most = 0;
        for (const Counter& c : lora_model(p, m, hierarchy()))
            if (c.name.rfind("bytes.", 0) == 0 && c.name != "bytes.min") most = std::max(most, c.value);
        return most;
    };
    EXPECT_DOUBLE_EQ(total(LoraMethod::fused) - total(LoraMethod::multi_adapter), 3 * 4.0 * 64 * 64);
    // multi_adapter in groups: W once per call.
    const auto grouped = [&](std::int64_t group) {
        double most = 0;
        for (const Counter& c : lora_model(p, LoraMethod::multi_adapter, hierarchy(), group))
            if (c.name.rfind("bytes.", 0) == 0 && c.name != "bytes.min") most = std::max(most, c.value);
        return most;
    };
    EXPECT_DOUBLE_EQ(grouped(1), total(LoraMethod::fused));
    EXPECT_DOUBLE_EQ(grouped(3) - grouped(4), 4.0 * 64 * 64);
    EXPECT_EQ(adapter_calls(p, 3), 2);
}

}  // namespace
}  // namespace memwall
