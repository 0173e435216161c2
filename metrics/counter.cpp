#include "metrics/counter.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace memwall {

namespace {
constexpr std::array<std::pair<CounterSource, std::string_view>, 5> kSourceNames{{
    {CounterSource::cupti, "cupti"},
    {CounterSource::perf, "perf"},
    {CounterSource::emu, "emu"},
    {CounterSource::model, "model"},
    {CounterSource::timer, "timer"},
}};
}  // namespace

std::string_view to_string(CounterSource s) {
    for (const auto& [source, name] : kSourceNames)
        if (source == s) return name;
    return "unknown";
}

std::optional<CounterSource> counter_source_from(std::string_view s) {
    for (const auto& [source, name] : kSourceNames)
        if (name == s) return source;
    return std::nullopt;
}

std::string counters::bytes_at(std::string_view level) {
    std::string name = "bytes.";
    name += level;
    return name;
}

const Counter* find_counter(const std::vector<Counter>& cs, std::string_view name) {
    auto it = std::find_if(cs.begin(), cs.end(), [&](const Counter& c) { return c.name == name; });
    return it == cs.end() ? nullptr : &*it;
}

}  // namespace memwall
