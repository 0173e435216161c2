#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include <gtest/gtest.h>

#include "kv_test_support.hpp"

using namespace memwall;

// d = 1: scores ln 3 and 0 weigh the values 3 : 1; equal scores average them.
TEST(KvOffloadReference, HandCheckedSoftmax) {
    const double q = std::log(3.0), k[] = {1.0, 0.0}, v[] = {8.0, 4.0};
    double out = 0;
    kv_attention_reference(&q, k, v, 2, 1, &out);
    EXPECT_NEAR(out, (3 * 8.0 + 4.0) / 4, 1e-12);
    // d = 4: scale 1/2; q·k equal for both keys, so the output is the values' mean.
    const double q4[] = {1, 0, 0, 0}, k4[] = {2, 5, 0, 0, 2, 0, 7, 0}, v4[] = {1, 2, 3, 4, 3, 2, 1, 0};
    double o4[4];
    kv_attention_reference(q4, k4, v4, 2, 4, o4);
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(o4[c], (v4[c] + v4[4 + c]) / 2, 1e-12);
}

TEST(KvOffloadWorkload, FileHoldsThePagesAndIsRemoved) {
    kv_test::ScratchDir d;
    const KvProblem p = KvProblem::from(kv_test::small_params());
    std::filesystem::path path;
    {
        const KvWorkload w(p, 3, d.path);
        path = w.file().path();
        ASSERT_EQ(w.file().size(), p.file_bytes());
        std::ifstream in(path, std::ios::binary);
        const std::string bytes(std::istreambuf_iterator<char>(in), {});
        ASSERT_EQ(bytes.size(), p.file_bytes());
        EXPECT_EQ(std::memcmp(bytes.data(), w.kv(), bytes.size()), 0);
        EXPECT_EQ(w.selections(), kv_selections(p, 3));
        for (std::size_t i = 0; i < p.out_floats(); ++i) EXPECT_GE(std::abs(w.q(0, 0)[i % 8]), 0.25f);
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_EQ(d.files(), 0u);
}

// fp32 attention of the selected pages passes; the same with one page swapped for another, a
// slightly wrong element, or an unwritten one fails.
TEST(KvOffloadWorkload, CheckCatchesWrongPagesAndUnwrittenOutputs) {
    kv_test::ScratchDir d;
    const KvProblem p = KvProblem::from(kv_test::small_params());
    const KvWorkload w(p, 5, d.path);
    std::vector<float> out(p.out_floats());
    auto attend = [&](std::int64_t wrong_step) {
        for (std::int64_t s = 0; s < p.steps; ++s) {
            std::vector<const float*> pages;
            for (auto page : w.selections()[static_cast<std::size_t>(s)]) {
                if (s == wrong_step && pages.empty()) page = (page + 1) % p.pages();
                pages.push_back(w.kv() + static_cast<std::size_t>(page) * p.page_floats());
            }
            kv_attend_step(p, w, s, pages.data(), out.data() + s * p.heads * p.head_dim);
        }
    };
    attend(-1);
    const Check ok = w.check(out.data());
    EXPECT_TRUE(ok.ok) << ok.error << " " << ok.message;
    EXPECT_LT(ok.error, ok.tolerance / 4);
    out[5] *= 1.01f;
    EXPECT_FALSE(w.check(out.data()).ok);
    attend(1);
    EXPECT_FALSE(w.check(out.data()).ok);
    attend(-1);
    out.back() = std::numeric_limits<float>::quiet_NaN();
    const Check nan = w.check(out.data());
    EXPECT_FALSE(nan.ok);
    EXPECT_NE(nan.message.find("step 2, head 1"), std::string::npos) << nan.message;
}
