#include "cli/metrics_option.hpp"

#include <algorithm>
#include <sstream>

#include "core/errors.hpp"
#include "profiler/cupti_host.hpp"

namespace memwall::cli {

void add_metrics_option(CLI::App* cmd, std::string& metrics) {
    cmd->add_option("--metrics", metrics,
                    "device counters of each case on cuda (CUPTI range profiler): default (DRAM, L2 and L1 bytes, "
                    "FP32 FMA instructions, duration), none, or CUPTI metric names a,b,c")
        ->default_str("default");
}

std::vector<std::string> metrics_from(const std::string& option) {
    if (option.empty() || option == "default") return cupti::default_metrics();
    if (option == "none") return {};
    std::vector<std::string> names;
    std::stringstream in(option);
    for (std::string name; std::getline(in, name, ',');) {
        const bool well_formed = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
        });
        if (!well_formed)
            throw UsageError("--metrics: '" + name + "' is not a metric name (e.g. dram__bytes_read.sum)");
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    if (option.back() == ',') throw UsageError("--metrics: an empty name after the last ','");
    return names;
}

}  // namespace memwall::cli
