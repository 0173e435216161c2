#include "results/report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/text_json.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::write_file;

const std::string kGoldenDir = std::string(MEMWALL_TEST_DATA) + "/compare/";

CaseComparison timed(std::string variant, std::string problem, std::string config, double base_ms, double cand_ms,
                     Interval ci, double p, Verdict v, std::string reason) {
    CaseComparison c;
    c.key = {"attention", std::move(variant), "cpu", std::move(problem), std::move(config)};
    c.base = {CaseStatus::ok, "", base_ms * 1e-3, 50, 5, 0};
    c.candidate = {CaseStatus::ok, "", cand_ms * 1e-3, 48, 5, 0};
    c.ratio = cand_ms / base_ms;
    c.ci = ci;
    c.p_value = p;
    c.basis = "repetitions";
    c.verdict = v;
    c.reason = std::move(reason);
    return c;
}

// Every verdict, an untimed case, unmatched cases on both sides, a warning, and text that needs
// escaping in Markdown (|) and XML (<, &, ").
Comparison sample_comparison() {
    Comparison c;
    c.base = {3,
              "ci.db",
              "2024-05-01T10:00:00.000Z",
              "runner-1",
              "AMD EPYC 9B14, 2 threads",
              "cpu",
              "0123abcd",
              {{"baseline", "main"}, {"branch", "main"}, {"commit", "0123abcd"}}};
    c.candidate = {7,
                   "ci.db",
                   "2024-05-02T09:30:00.000Z",
                   "runner-2",
                   "AMD EPYC 9B14, 2 threads",
                   "cpu",
                   "4567ef01",
                   {{"branch", "feature/tiles"}, {"commit", "4567ef01"}}};
    const std::string p256 = R"({"causal":0,"head_dim":64,"seq_k":256,"seq_q":256})";
    const std::string p512 = R"({"causal":1,"head_dim":64,"seq_k":512,"seq_q":512})";
    const std::string tiles = R"({"Bc":128,"Br":32})";
    c.cases = {
        timed("flash", p256, tiles, 1.0, 1.012, {0.998, 1.025}, 0.21, Verdict::same, "95% CI within the ±5% band"),
        timed("flash", p512, tiles, 2.0, 2.3, {1.12, 1.18}, 0.0079, Verdict::slower,
              "95% CI beyond the ±5% band, p = 0.0079"),
        timed("naive", p256, "{}", 4.0, 3.2, {0.78, 0.82}, 0.0079, Verdict::faster,
              "95% CI beyond the ±5% band, p = 0.0079"),
        timed("naive", p512, "{}", 8.0, 8.4, {1.01, 1.09}, 0.03, Verdict::unsure, "95% CI reaches into the ±5% band"),
    };
    CaseComparison broken;
    broken.key = {"attention", "flash", "cpu", p512, R"({"Bc":128,"Br":64})"};
    broken.base = {CaseStatus::ok, "", 2.1e-3, 50, 5, 0};
    broken.candidate = {CaseStatus::wrong_result, "rel. L2 error 0.3 > 1e-4 | \"NaN\" & <unwritten>", 0, 0, 0, 0};
    broken.verdict = Verdict::failed;
    broken.reason = "candidate wrong_result: rel. L2 error 0.3 > 1e-4 | \"NaN\" & <unwritten>";
    c.cases.push_back(broken);
    c.only_in_base = {{"attention", "naive", "cpu", R"({"causal":0,"head_dim":128,"seq_k":256,"seq_q":256})", "{}"}};
    c.only_in_candidate = {{"attention", "flash", "cpu", p256, R"({"Bc":64,"Br":32})"}};
    c.geomean = {4, 0.9853, {0.962, 1.009}};
    c.warnings = {"run 7 of ci.db is interrupted: cases it lacks are listed as unmatched"};
    return c;
}

template <class Writer>
void expect_golden(Writer write, const std::string& name) {
    std::ostringstream out;
    write(sample_comparison(), out);
    const std::string golden = kGoldenDir + name;
    const std::string expected = std::filesystem::exists(golden) ? read_file(golden) : std::string();
    if (out.str() != expected) {
        const auto kept = std::filesystem::temp_directory_path() / ("memwall-actual-" + name);
        write_file(kept.string(), out.str());
        ADD_FAILURE() << name << " differs from the golden file; actual output written to " << kept;
    }
}

TEST(Report, MarkdownMatchesGolden) { expect_golden(write_markdown, "report.md"); }
TEST(Report, JsonMatchesGolden) { expect_golden(write_json, "report.json"); }
TEST(Report, JunitMatchesGolden) { expect_golden(write_junit, "report.junit.xml"); }

TEST(Report, JsonCountsAndRegression) {
    std::ostringstream out;
    write_json(sample_comparison(), out);
    const auto j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j.at("summary").at("SLOWER"), 1);
    EXPECT_EQ(j.at("summary").at("FAILED"), 1);
    EXPECT_EQ(j.at("summary").at("regression"), true);
    EXPECT_TRUE(j.at("cases").at(4).at("ci").is_null());  // the failed case has no interval
    EXPECT_EQ(j.at("cases").at(0).at("problem").at("seq_q"), 256);
}

TEST(Report, JunitHasOneTestcasePerCaseAndARegressionIsAFailure) {
    std::ostringstream out;
    write_junit(sample_comparison(), out);
    const std::string x = out.str();
    auto count = [&](const std::string& needle) {
        std::size_t n = 0;
        for (auto at = x.find(needle); at != std::string::npos; at = x.find(needle, at + 1)) ++n;
        return n;
    };
    EXPECT_EQ(count("<testcase "), 7u);                   // 5 compared + 2 unmatched
    EXPECT_EQ(count("<failure "), 2u);                    // SLOWER and FAILED
    EXPECT_EQ(count("<skipped "), 3u);                    // UNSURE and the unmatched
    EXPECT_EQ(x.find("<unwritten>"), std::string::npos);  // escaped
}

// A suite name, a tag or a message with control characters (NUL, ESC) or bytes that are not UTF-8:
// XML 1.0 cannot hold them even as character references, so they are written as \x1b and the
// report stays well-formed: no control character but the line breaks between elements, all UTF-8.
TEST(Report, JunitWritesControlCharactersAndStrayBytesAsText) {
    Comparison c = sample_comparison();
    const std::string hostile =
        std::string("suite\0name \x1b[31mred\x1b[0m \xff\xfe \xEF\xBF\xBF tab\tcr\r", 38) + " é";
    c.base.tags["suite"] = hostile;
    c.warnings.push_back(hostile);
    c.cases[4].reason = hostile;
    std::ostringstream out;
    write_junit(c, out);
    const std::string x = out.str();
    for (const char ch : x) EXPECT_TRUE(ch == '\n' || static_cast<unsigned char>(ch) >= 0x20) << static_cast<int>(ch);
    EXPECT_TRUE(is_utf8(x));
    EXPECT_NE(x.find(R"(suite\x00name \x1b[31mred\x1b[0m \xff\xfe \xef\xbf\xbf tab&#9;cr&#13; é)"), std::string::npos)
        << x;
}

TEST(Report, Formatting) {
    EXPECT_EQ(params_label("{}"), "-");
    EXPECT_EQ(params_label(R"({"Bc":128,"Br":32})"), "Bc=128,Br=32");
    EXPECT_EQ(format_duration(1.5e-3), "1.5 ms");
    EXPECT_EQ(format_duration(812e-6), "812 us");
    EXPECT_EQ(format_interval({0.99, 1.021}), "[-1.0%, +2.1%]");
    EXPECT_EQ(format_p_value(1e-9), "<1e-06");
    EXPECT_EQ(format_p_value(0.0123), "0.012");
}

}  // namespace
}  // namespace memwall
