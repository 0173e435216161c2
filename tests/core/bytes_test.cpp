#include "core/bytes.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

using namespace memwall;

TEST(Bytes, BinaryAndDecimalUnits) {
    EXPECT_EQ(parse_bytes("512MiB", "x"), 512ull << 20);
    EXPECT_EQ(parse_bytes("512 MiB", "x"), 512ull << 20);
    EXPECT_EQ(parse_bytes("4G", "x"), 4ull << 30);
    EXPECT_EQ(parse_bytes("64k", "x"), 64ull << 10);
    EXPECT_EQ(parse_bytes("2GB", "x"), 2'000'000'000ull);
    EXPECT_EQ(parse_bytes("1e9", "x"), 1'000'000'000ull);
    EXPECT_EQ(parse_bytes("1000000", "x"), 1'000'000ull);
    EXPECT_EQ(parse_bytes("1.5KiB", "x"), 1536ull);
}

TEST(Bytes, BadSizesNameTheOption) {
    for (const char* bad : {"", "lots", " 5G", "5 parsecs", "5GiBs", "0", "-1G", "nan", "1e30", "0.5"}) {
        try {
            parse_bytes(bad, "--case-memory");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("--case-memory '", 0), 0u) << e.what();
        }
    }
}

TEST(Bytes, FormatsWithABinaryUnit) {
    EXPECT_EQ(format_bytes(256.0 * (1 << 20)), "256 MiB");
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(1.5 * (1 << 30)), "1.5 GiB");
}
