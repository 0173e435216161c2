#include "metrics/memory_hierarchy.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>
#include <system_error>

namespace memwall {

namespace {

std::optional<std::string> read_line(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    return line;
}

std::optional<std::size_t> parse_unsigned(std::string_view s) {
    std::size_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// sysfs writes sizes as "32K"; accept a bare number of bytes and M/G as well.
std::optional<std::size_t> parse_size(std::string_view s) {
    std::size_t scale = 1;
    if (!s.empty()) {
        switch (s.back()) {
            case 'K': scale = std::size_t{1} << 10; break;
            case 'M': scale = std::size_t{1} << 20; break;
            case 'G': scale = std::size_t{1} << 30; break;
            default: break;
        }
        if (scale != 1) s.remove_suffix(1);
    }
    auto v = parse_unsigned(s);
    if (!v || *v == 0) return std::nullopt;
    return *v * scale;
}

// Counts the CPUs of a list such as "0-3,8,10-11".
std::optional<int> count_cpu_list(std::string_view s) {
    int n = 0;
    while (!s.empty()) {
        auto comma = s.find(',');
        auto item = s.substr(0, comma);
        s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
        auto dash = item.find('-');
        auto first = parse_unsigned(item.substr(0, dash));
        auto last = dash == std::string_view::npos ? first : parse_unsigned(item.substr(dash + 1));
        if (!first || !last || *last < *first) return std::nullopt;
        n += static_cast<int>(*last - *first + 1);
    }
    if (n == 0) return std::nullopt;
    return n;
}

MemoryHierarchy fallback_hierarchy(int cpus) {
    return {{{"l1", std::size_t{32} << 10, 1}, {"l2", std::size_t{1} << 20, 1}, {"llc", std::size_t{32} << 20, cpus}},
            cpus};
}

}  // namespace

std::size_t MemoryHierarchy::per_thread_bytes(const std::string& level) const {
    for (const auto& c : caches)
        if (c.name == level) return c.bytes / static_cast<std::size_t>(std::max(c.shared_by, 1));
    return 0;
}

std::string MemoryHierarchy::level_holding(double bytes) const {
    for (const auto& c : caches)
        if (bytes <= static_cast<double>(per_thread_bytes(c.name))) return c.name;
    return "dram";
}

MemoryHierarchy read_memory_hierarchy(const std::filesystem::path& cache_dir, int cpus) {
    std::map<int, CacheLevel> by_level;  // sysfs level -> cache; the largest one of a level
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec)) {
        if (entry.path().filename().string().rfind("index", 0) != 0) continue;
        auto level = read_line(entry.path() / "level");
        auto type = read_line(entry.path() / "type");
        auto size = read_line(entry.path() / "size");
        if (!level || !type || !size || (*type != "Data" && *type != "Unified")) continue;
        auto lv = parse_unsigned(*level);
        auto bytes = parse_size(*size);
        if (!lv || !bytes) continue;
        int shared_by = 1;
        if (auto list = read_line(entry.path() / "shared_cpu_list")) shared_by = count_cpu_list(*list).value_or(1);
        char name[24];  // not "l" + to_string(): GCC 12 warns falsely there (-Wrestrict)
        std::snprintf(name, sizeof name, "l%zu", *lv);
        auto [it, added] = by_level.try_emplace(static_cast<int>(*lv), CacheLevel{name, *bytes, shared_by});
        if (!added && *bytes > it->second.bytes) it->second = CacheLevel{name, *bytes, shared_by};
    }
    if (by_level.empty()) return fallback_hierarchy(cpus);

    MemoryHierarchy mh;
    mh.cpus = cpus;
    for (const auto& entry : by_level) mh.caches.push_back(entry.second);
    if (mh.caches.size() > 1) mh.caches.back().name = "llc";
    return mh;
}

MemoryHierarchy detect_memory_hierarchy() {
    return read_memory_hierarchy("/sys/devices/system/cpu/cpu0/cache", omp_get_max_threads());
}

}  // namespace memwall
