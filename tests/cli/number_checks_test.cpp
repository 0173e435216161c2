// Numeric options: only finite numbers within the option's range pass, so inf, nan and 1e400
// (which strtod reads) are refused as a bad value with exit status 2, and unsigned options take
// digits only ("-1" read as 2^64 - 1).
#include "cli/number_checks.hpp"

#include <gtest/gtest.h>

namespace memwall::cli {
namespace {

// What CLI11 makes of `text` as the value of an option checked by `check`: "" when accepted.
std::string refusal(const CLI::Validator& check, std::string text) {
    CLI::App app;
    double value = 0;
    app.add_option("--x", value)->check(check);
    try {
        app.parse(std::vector<std::string>{text, "--x"});  // CLI11 takes its arguments reversed
        return "";
    } catch (const CLI::ParseError& e) {
        return e.what();
    }
}

TEST(NumberChecks, OnlyFiniteNumbersInRangePass) {
    for (const char* bad : {"inf", "-inf", "nan", "NaN", "1e400", "0", "-1", "", "3s", "0x"})
        EXPECT_NE(refusal(positive_number(), bad), "") << bad;
    for (const char* good : {"1", "0.5", "1e-3", "120"}) EXPECT_EQ(refusal(positive_number(), good), "") << good;
    EXPECT_EQ(refusal(non_negative_number(), "0"), "");
    EXPECT_NE(refusal(non_negative_number(), "-0.1"), "");
    EXPECT_EQ(refusal(fraction(), "1"), "");
    EXPECT_NE(refusal(fraction(), "nan"), "");
    EXPECT_NE(refusal(fraction(), "1.5"), "");
    for (const char* bad : {"-1", "+1", "1.5", "", "18446744073709551616"})
        EXPECT_NE(refusal(whole_number(), bad), "") << bad;
    for (const char* good : {"0", "7", "18446744073709551615"}) EXPECT_EQ(refusal(whole_number(), good), "") << good;
    const std::string line = refusal(positive_number(), "inf");
    EXPECT_NE(line.find("a finite number greater than 0, not 'inf'"), std::string::npos) << line;
}

}  // namespace
}  // namespace memwall::cli
