#include "profiler/cupti_host.hpp"

#include <algorithm>

#if defined(MEMWALL_HAVE_CUPTI)
#include "profiler/cupti_api.hpp"
#endif

namespace memwall::cupti {

const std::vector<std::string>& default_metrics() {
    static const std::vector<std::string> metrics = {
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "lts__t_bytes.sum",
        "l1tex__t_bytes.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "gpu__time_duration.sum",
    };
    return metrics;
}

#if defined(MEMWALL_HAVE_CUPTI)

namespace {

using detail::api;
using detail::check;
using detail::HostObject;

const char* type_name(CUpti_MetricType t) {
    switch (t) {
        case CUPTI_METRIC_TYPE_COUNTER: return "counter";
        case CUPTI_METRIC_TYPE_RATIO: return "ratio";
        case CUPTI_METRIC_TYPE_THROUGHPUT: return "throughput";
        default: return "?";
    }
}

std::string joined(const std::vector<std::string>& xs) {
    std::string s;
    for (const std::string& x : xs) s += (s.empty() ? "" : " ") + x;
    return s;
}

}  // namespace

struct ChipMetrics::Host {
    explicit Host(const std::string& chip) : object(chip) {}
    HostObject object;
};

std::vector<std::string> supported_chips() {
    CUpti_Profiler_Host_GetSupportedChips_Params p{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
    check(api().supported_chips(&p), "cuptiProfilerHostGetSupportedChips");
    return {p.ppChipNames, p.ppChipNames + p.numChips};
}

ChipMetrics::ChipMetrics(const std::string& chip) : chip_(chip) {
    const std::vector<std::string> chips = supported_chips();
    if (std::find(chips.begin(), chips.end(), chip) == chips.end())
        throw std::invalid_argument("unknown chip '" + chip + "' (CUPTI knows: " + joined(chips) + ")");
    host_ = std::make_unique<Host>(chip);
}

ChipMetrics::~ChipMetrics() = default;

std::vector<std::pair<std::string, std::string>> ChipMetrics::base_metrics() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (CUpti_MetricType t : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        p.pHostObject = host_->object.get();
        p.metricType = t;
        check(api().base_metrics(&p), "cuptiProfilerHostGetBaseMetrics");
        for (std::size_t i = 0; i < p.numMetrics; ++i) out.emplace_back(p.ppMetricNames[i], type_name(t));
    }
    return out;
}

std::optional<MetricProperties> ChipMetrics::properties(const std::string& metric) const {
    CUpti_Profiler_Host_GetMetricProperties_Params p{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = host_->object.get();
    p.pMetricName = metric.c_str();
    const CUptiResult r = api().metric_properties(&p);
    if (r == CUPTI_ERROR_INVALID_METRIC_NAME) return std::nullopt;
    check(r, "cuptiProfilerHostGetMetricProperties");
    auto text = [](const char* s) { return std::string(s ? s : ""); };
    return MetricProperties{text(p.pDescription), text(p.pHwUnit), text(p.pDimUnit), type_name(p.metricType)};
}

void ChipMetrics::require(const std::vector<std::string>& metrics) const {
    std::vector<std::string> unknown;
    for (const std::string& m : metrics)
        if (!properties(m)) unknown.push_back("'" + m + "'");
    if (!unknown.empty()) throw std::invalid_argument("not metrics of " + chip_ + ": " + joined(unknown));
}

MetricConfig ChipMetrics::configure(const std::vector<std::string>& metrics) const {
    require(metrics);
    // A host object of its own: metrics added to one stay in its configuration.
    const HostObject host(chip_);
    return detail::add_metrics(host, metrics);
}

MetricConfig detail::add_metrics(const HostObject& host, const std::vector<std::string>& metrics) {
    std::vector<const char*> names;
    for (const std::string& m : metrics) names.push_back(m.c_str());
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host.get();
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    check(api().add_metrics(&add), "cuptiProfilerHostConfigAddMetrics");
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host.get();
    check(api().config_image_size(&size), "cuptiProfilerHostGetConfigImageSize");
    MetricConfig c;
    c.image.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = host.get();
    image.configImageSize = c.image.size();
    image.pConfigImage = c.image.data();
    check(api().config_image(&image), "cuptiProfilerHostGetConfigImage");
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = c.image.size();
    passes.pConfigImage = c.image.data();
    check(api().passes(&passes), "cuptiProfilerHostGetNumOfPasses");
    c.passes = passes.numOfPasses;
    return c;
}

#else  // built without the CUDA toolkit

namespace {
[[noreturn]] void unavailable() {
    throw Unavailable("CUPTI is unavailable: memwall was built without the CUDA toolkit (/usr/local/cuda)");
}
}  // namespace

struct ChipMetrics::Host {};

std::vector<std::string> supported_chips() { unavailable(); }
ChipMetrics::ChipMetrics(const std::string& chip) : chip_(chip) { unavailable(); }
ChipMetrics::~ChipMetrics() = default;
std::vector<std::pair<std::string, std::string>> ChipMetrics::base_metrics() const { unavailable(); }
std::optional<MetricProperties> ChipMetrics::properties(const std::string&) const { unavailable(); }
void ChipMetrics::require(const std::vector<std::string>&) const { unavailable(); }
MetricConfig ChipMetrics::configure(const std::vector<std::string>&) const { unavailable(); }

#endif

}  // namespace memwall::cupti
