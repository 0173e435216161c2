#include "cli/number_checks.hpp"

#include <charconv>
#include <cerrno>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace memwall::cli {

namespace {

std::string range_text(double lo, bool lo_excluded, double hi) {
    std::ostringstream s;
    if (hi == std::numeric_limits<double>::max())
        s << (lo_excluded ? "greater than " : "at least ") << lo;
    else
        s << "from " << lo << (lo_excluded ? " (excluded)" : "") << " to " << hi;
    return s.str();
}

}  // namespace

CLI::Validator finite_number(double lo, bool lo_excluded, double hi) {
    const std::string want = "a finite number " + range_text(lo, lo_excluded, hi);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            errno = 0;
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            const bool number = !text.empty() && end == text.c_str() + text.size() && errno != ERANGE;
            if (!number || !std::isfinite(v) || v < lo || (lo_excluded && v == lo) || v > hi)
                return "expected " + want + ", not '" + text + "'";
            return {};
        },
        want);
}

CLI::Validator whole_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (text.empty() || ec != std::errc() || end != text.data() + text.size())
                return "expected a whole number (0, 1, 2, ...), not '" + text + "'";
            return {};
        },
        "a whole number");
}

}  // namespace memwall::cli
