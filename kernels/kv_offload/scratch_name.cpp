#include "kernels/kv_offload/scratch_name.hpp"

#include <array>
#include <charconv>
#include <limits>

namespace memwall {

namespace {

bool all_digits(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

std::optional<ScratchName> parse_scratch_name(std::string_view name) {
    if (!name.starts_with(kScratchNamePrefix)) return std::nullopt;
    std::string_view rest = name.substr(kScratchNamePrefix.size());
    std::array<std::string_view, 3> tail;  // n, ticks, pid
    for (auto& field : tail) {
        const auto dot = rest.rfind('.');
        if (dot == std::string_view::npos) return std::nullopt;
        field = rest.substr(dot + 1);
        if (!all_digits(field)) return std::nullopt;
        rest = rest.substr(0, dot);
    }
    if (rest.empty()) return std::nullopt;
    ScratchName out{std::string(rest), 0, std::string(tail[1])};
    const std::string_view pid = tail[2];
    // Out of range (any length of digits can be a file name) is not a pid this host can have.
    const auto [end, ec] = std::from_chars(pid.data(), pid.data() + pid.size(), out.pid);
    if (ec != std::errc() || end != pid.data() + pid.size() || out.pid <= 0 ||
        out.pid > std::numeric_limits<std::int32_t>::max())
        return std::nullopt;
    return out;
}

std::string scratch_name(const ScratchName& owner, std::uint64_t n) {
    return std::string(kScratchNamePrefix) + owner.host + "." + std::to_string(owner.pid) + "." + owner.ticks + "." +
           std::to_string(n);
}

}  // namespace memwall
