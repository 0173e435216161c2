// The JUnit XML report: one testcase per case. SLOWER and FAILED are failures, UNSURE and
// unmatched cases are skipped with the reason, SAME and FASTER pass; CI systems (GitHub
// Actions test reporters, GitLab, Jenkins) show it natively.
#include <cstdio>
#include <ostream>
#include <string_view>

#include "core/text_json.hpp"
#include "results/report.hpp"

namespace memwall {

namespace {

// "\x1b": XML 1.0 has no way to write most control characters (not even as &#27;), nor bytes
// that are not UTF-8; a suite name or a message may hold them.
void escaped_byte(std::string& out, unsigned char c) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += "\\x";
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
}

// The length of the UTF-8 sequence a lead byte starts; 0 for a byte that starts none.
std::size_t sequence_length(unsigned char c) {
    return c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

std::string xml(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto ch = static_cast<unsigned char>(s[i]);
        if (ch >= 0x80) {
            const std::size_t n = sequence_length(ch);
            const std::string_view seq = n ? std::string_view(s).substr(i, n) : std::string_view();
            // U+FFFE and U+FFFF are UTF-8 but not XML characters.
            if (seq.size() == n && n > 0 && is_utf8(seq) && seq != "\xEF\xBF\xBE" && seq != "\xEF\xBF\xBF") {
                out += seq;
                i += n;
            } else {
                escaped_byte(out, ch);
                ++i;
            }
            continue;
        }
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            case '\t': out += "&#9;"; break;
            default:
                if (ch < 0x20)
                    escaped_byte(out, ch);
                else
                    out += static_cast<char>(ch);
        }
        ++i;
    }
    return out;
}

// classname "attention.flash.cpu", name "problem [config]".
std::string testcase_open(const CaseKey& k, double seconds) {
    std::string name = params_label(k.problem);
    if (params_label(k.config) != "-") name += " [" + params_label(k.config) + "]";
    char time[32];
    std::snprintf(time, sizeof time, "%.6g", seconds);
    return "    <testcase classname=\"" + xml(k.family + "." + k.variant + "." + k.backend) + "\" name=\"" + xml(name) +
           "\" time=\"" + time + "\">\n";
}

std::string summary_of(const CaseComparison& x) {
    std::string s = std::string(to_string(x.verdict));
    if (x.ci.hi > 0) s += " " + format_change(x.ratio) + " " + format_interval(x.ci);
    return s + ": " + x.reason;
}

std::string details_of(const CaseComparison& x) {
    std::string s = "base " + (x.base.n ? format_duration(x.base.median) : std::string(to_string(x.base.status))) +
                    " (n=" + std::to_string(x.base.n) + "), candidate " +
                    (x.candidate.n ? format_duration(x.candidate.median) : std::string(to_string(x.candidate.status))) +
                    " (n=" + std::to_string(x.candidate.n) + ")";
    if (!x.basis.empty())
        s += ", " + std::string(rank_test_name(x.basis)) + " p = " + format_p_value(x.p_value) + " over " + x.basis;
    return s;
}

}  // namespace

void write_junit(const Comparison& c, std::ostream& os) {
    const std::size_t tests = c.cases.size() + c.only_in_base.size() + c.only_in_candidate.size();
    const std::size_t failures = c.count(Verdict::slower) + c.count(Verdict::failed);
    const std::size_t skipped = c.count(Verdict::unsure) + c.only_in_base.size() + c.only_in_candidate.size();
    const std::string counts = "tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
                               "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\"";
    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    os << "<testsuites name=\"memwall compare\" " << counts << ">\n";
    os << "  <testsuite name=\"" << xml("memwall compare: " + run_label(c.base) + " vs " + run_label(c.candidate))
       << "\" " << counts << ">\n";
    os << "    <properties>\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", c.options.threshold);
    os << "      <property name=\"threshold\" value=\"" << buf << "\"/>\n";
    std::snprintf(buf, sizeof buf, "%g", c.options.alpha);
    os << "      <property name=\"alpha\" value=\"" << buf << "\"/>\n";
    os << "      <property name=\"rule\" value=\"" << xml(verdict_rule(c.options, c.paired)) << "\"/>\n";
    for (const auto& w : c.warnings) os << "      <property name=\"warning\" value=\"" << xml(w) << "\"/>\n";
    os << "    </properties>\n";
    for (const auto& x : c.cases) {
        os << testcase_open(x.key, x.candidate.median);
        switch (x.verdict) {
            case Verdict::slower:
            case Verdict::failed:
                os << "      <failure type=\"" << to_string(x.verdict) << "\" message=\"" << xml(summary_of(x)) << "\">"
                   << xml(details_of(x)) << "</failure>\n";
                break;
            case Verdict::unsure: os << "      <skipped message=\"" << xml(summary_of(x)) << "\"/>\n"; break;
            case Verdict::same:
            case Verdict::faster:
                os << "      <system-out>" << xml(summary_of(x) + "; " + details_of(x)) << "</system-out>\n";
                break;
        }
        os << "    </testcase>\n";
    }
    for (const auto& k : c.only_in_base)
        os << testcase_open(k, 0) << "      <skipped message=\"only in the base run: missing from the candidate\"/>\n"
           << "    </testcase>\n";
    for (const auto& k : c.only_in_candidate)
        os << testcase_open(k, 0) << "      <skipped message=\"only in the candidate run: no base to compare with\"/>\n"
           << "    </testcase>\n";
    os << "  </testsuite>\n</testsuites>\n";
}

}  // namespace memwall
