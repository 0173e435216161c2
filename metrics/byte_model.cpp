#include "metrics/byte_model.hpp"

#include <algorithm>
#include <string>

namespace memwall {

std::vector<Counter> level_bytes(const MemoryHierarchy& mh, const std::vector<TrafficStream>& streams) {
    std::vector<std::string> names;
    for (const CacheLevel& c : mh.caches) names.push_back(c.name);
    names.emplace_back("dram");
    std::vector<double> served(names.size(), 0.0);
    for (const TrafficStream& s : streams) {
        const std::string level = mh.level_holding(s.working_set);
        const auto at = static_cast<std::size_t>(std::find(names.begin(), names.end(), level) - names.begin());
        served[std::min(at, names.size() - 1)] += s.bytes;
    }
    std::vector<Counter> out;
    double crossing = 0;
    for (std::size_t i = names.size(); i-- > 0;) {
        crossing += served[i];
        out.push_back({counters::bytes_at(names[i]), crossing, "B", CounterSource::model});
    }
    return out;
}

std::vector<Counter> byte_model(double flops, double min_bytes, double workspace_bytes, const MemoryHierarchy& mh,
                                const std::vector<TrafficStream>& streams) {
    std::vector<Counter> out{
        {std::string(counters::kFlops), flops, "FLOP", CounterSource::model},
        {std::string(counters::kBytesMin), min_bytes, "B", CounterSource::model},
        {std::string(counters::kWorkspace), workspace_bytes, "B", CounterSource::model},
    };
    const auto levels = level_bytes(mh, streams);
    out.insert(out.end(), levels.begin(), levels.end());
    return out;
}

}  // namespace memwall
