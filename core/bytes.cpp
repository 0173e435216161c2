#include "core/bytes.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/errors.hpp"

namespace memwall {

std::string format_bytes(double b) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    for (; b >= 1024 && u < 4; ++u) b /= 1024;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g %s", b, units[u]);
    return buf;
}

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
    const auto bad = [&](const std::string& why) {
        return UsageError(what + " '" + text + "' " + why + " (e.g. 512MiB, 4GiB, 1e9)");
    };
    const char* begin = text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || std::isspace(static_cast<unsigned char>(*begin))) throw bad("is not a size");
    std::string unit(end);
    while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    double scale = 1;
    if (!unit.empty() && unit != "B") {
        const std::string prefixes = "KMGT";
        const auto p = prefixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))));
        const std::string rest = unit.substr(1);
        if (p == std::string::npos || !(rest.empty() || rest == "iB" || rest == "B")) throw bad("has an unknown unit");
        const bool decimal = rest == "B";
        scale = std::pow(decimal ? 1000.0 : 1024.0, static_cast<double>(p + 1));
    }
    const double bytes = number * scale;
    if (!(bytes >= 1)) throw bad("must be at least one byte");
    if (!(bytes <= 9.2e18)) throw bad("is too large");
    return static_cast<std::uint64_t>(bytes);
}

}  // namespace memwall
