// The CPU side of the device language: bfloat16, math intrinsics, vector types.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cuda_emu/cuda.hpp"

namespace {

TEST(Bfloat16, RoundsToNearestEven) {
    EXPECT_EQ(__bfloat162float(__float2bfloat16(1.0f)), 1.0f);
    EXPECT_EQ(__bfloat162float(__float2bfloat16(1.00390625f)), 1.0f);       // tie: down to even
    EXPECT_EQ(__bfloat162float(__float2bfloat16(1.01171875f)), 1.015625f);  // tie: up to even
    EXPECT_EQ(__bfloat162float(__float2bfloat16(1.005f)), 1.0078125f);
    EXPECT_EQ(__bfloat162float(__float2bfloat16(-3.0f)), -3.0f);
    EXPECT_EQ(__float2bfloat16_rn(65536.0f).__x, 0x4780);
}

TEST(Bfloat16, KeepsInfinitiesAndNaNs) {
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(static_cast<float>(__nv_bfloat16(inf)), inf);
    EXPECT_EQ(static_cast<float>(__nv_bfloat16(-inf)), -inf);
    EXPECT_TRUE(std::isnan(static_cast<float>(__nv_bfloat16(std::nanf("")))));
    EXPECT_EQ(static_cast<float>(__nv_bfloat16(3.4e38f)), inf);  // rounds up past the largest
}

TEST(Bfloat16, ArithmeticGoesThroughFloat) {
    const __nv_bfloat16 a = 1.5f, b = 2.0f;
    const __nv_bfloat16 c = a * b + a;
    EXPECT_EQ(static_cast<float>(c), 4.5f);
}

TEST(DeviceMath, BitIntrinsics) {
    EXPECT_EQ(__popc(0xf0f0u), 8);
    EXPECT_EQ(__popcll(~0ull), 64);
    EXPECT_EQ(__clz(1), 31);
    EXPECT_EQ(__clz(0), 32);
    EXPECT_EQ(__clzll(1), 63);
    EXPECT_EQ(__ffs(0), 0);
    EXPECT_EQ(__ffs(0x8), 4);
    EXPECT_EQ(__ffsll(1ll << 40), 41);
    EXPECT_EQ(__brev(1u), 0x80000000u);
    EXPECT_EQ(__brev(0x0000f00fu), 0xf00f0000u);
    EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x4321u), 0x44332211u);
    EXPECT_EQ(__mulhi(1 << 30, 8), 2);
    EXPECT_EQ(__umulhi(0x80000000u, 4u), 2u);
    EXPECT_EQ(__float_as_uint(1.0f), 0x3f800000u);
    EXPECT_EQ(__int_as_float(0x40000000), 2.0f);
    EXPECT_EQ(__longlong_as_double(__double_as_longlong(-2.5)), -2.5);
}

TEST(DeviceMath, RoundingAndFastFunctions) {
    EXPECT_EQ(__float2int_rn(2.5f), 2);
    EXPECT_EQ(__float2int_rn(3.5f), 4);
    EXPECT_EQ(__float2int_rz(-2.7f), -2);
    EXPECT_EQ(__float2int_rd(-2.2f), -3);
    EXPECT_EQ(__float2int_ru(2.2f), 3);
    EXPECT_EQ(__saturatef(1.5f), 1.0f);
    EXPECT_EQ(__saturatef(-0.5f), 0.0f);
    EXPECT_EQ(__saturatef(std::nanf("")), 0.0f);
    EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
    EXPECT_FLOAT_EQ(__expf(1.0f), std::exp(1.0f));
    EXPECT_EQ(__fdividef(1.0f, 4.0f), 0.25f);
    EXPECT_EQ(__fmaf_rn(2.0f, 3.0f, 1.0f), 7.0f);
    float s = 0, c = 0;
    __sincosf(0.0f, &s, &c);
    EXPECT_EQ(s, 0.0f);
    EXPECT_EQ(c, 1.0f);
    EXPECT_EQ(min(3, -4), -4);
    EXPECT_EQ(max(3u, 4u), 4u);
    EXPECT_EQ(min(2.5f, std::nanf("")), 2.5f);  // fminf semantics
}

TEST(DeviceTypes, Dim3DefaultsToOne) {
    const dim3 d(4);
    EXPECT_EQ(d.y, 1u);
    EXPECT_EQ(d.z, 1u);
    const uint3 u = dim3(2, 3);
    EXPECT_EQ(u.y, 3u);
    EXPECT_EQ(alignof(float4), 16u);
    EXPECT_EQ(make_float4(1, 2, 3, 4).w, 4.0f);
}

}  // namespace
