#include "profiler/cupti_range.hpp"

#include <stdexcept>

#include "profiler/cupti_host.hpp"
#if defined(MEMWALL_HAVE_CUPTI)
#include "profiler/cupti_api.hpp"
#endif

namespace memwall::cupti {

std::size_t replay(ReplayTarget& target, std::size_t max_passes, const std::function<void()>& prepare,
                   const std::function<void()>& work) {
    for (std::size_t pass = 1;; ++pass) {
        if (pass > max_passes)
            throw std::runtime_error("CUPTI's range profiler wanted more than the " + std::to_string(max_passes) +
                                     " replay passes its configuration takes");
        prepare();
        target.start_pass();
        target.push_range();
        work();
        target.pop_range();
        if (target.stop_pass()) return pass;
    }
}

std::vector<Counter> counters_of(const std::vector<std::pair<std::string, double>>& values,
                                 const std::vector<std::string>& dimension_units) {
    if (values.size() != dimension_units.size()) throw std::logic_error("counters_of: a unit per value");
    std::vector<Counter> out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string& d = dimension_units[i];
        out.push_back({values[i].first, values[i].second,
                       d == "byte"      ? "B"
                       : d == "nsecond" ? "ns"
                                        : d,
                       CounterSource::cupti});
    }
    return out;
}

#if defined(MEMWALL_HAVE_CUPTI)

namespace {

using detail::api;
using detail::check;

// One range, one nesting level: the work of a case.
constexpr std::size_t kRanges = 1;

// cuptiProfilerInitialize, once per process, before any target-side call.
void initialize_profiler() {
    static const bool done = [] {
        CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        check(api().profiler_initialize(&p), "cuptiProfilerInitialize");
        return true;
    }();
    (void)done;
}

std::string device_chip(int device) {
    CUpti_Device_GetChipName_Params p{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = static_cast<std::size_t>(device);
    check(api().chip_name(&p), "cuptiDeviceGetChipName");
    return p.pChipName;
}

class Target final : public ReplayTarget {
  public:
    explicit Target(CUpti_RangeProfiler_Object* object) : object_(object) {}
    void start_pass() override {
        CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = object_;
        check(api().start(&p), "cuptiRangeProfilerStart");
    }
    void push_range() override {
        CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = object_;
        p.pRangeName = "memwall case";
        check(api().push_range(&p), "cuptiRangeProfilerPushRange");
    }
    void pop_range() override {
        CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = object_;
        check(api().pop_range(&p), "cuptiRangeProfilerPopRange");
    }
    bool stop_pass() override {
        CUpti_RangeProfiler_Stop_Params p{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = object_;
        check(api().stop(&p), "cuptiRangeProfilerStop");
        return p.isAllPassSubmitted != 0;
    }

  private:
    CUpti_RangeProfiler_Object* object_;
};

}  // namespace

struct RangeProfiler::State {
    std::string chip;
    std::vector<std::string> metrics;
    std::vector<const char*> names;
    std::vector<std::string> units;
    std::unique_ptr<detail::HostObject> host;  // the configuration's, which evaluates its data
    MetricConfig config;
    CUpti_RangeProfiler_Object* object = nullptr;
    std::vector<std::uint8_t> counter_data;
};

RangeProfiler::RangeProfiler(void* context, int device, std::vector<std::string> metrics)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    initialize_profiler();
    s.chip = device_chip(device);
    const ChipMetrics chip(s.chip);
    chip.require(metrics);
    for (const std::string& m : metrics) s.units.push_back(chip.properties(m)->dim_unit);
    s.metrics = std::move(metrics);
    for (const std::string& m : s.metrics) s.names.push_back(m.c_str());
    s.host = std::make_unique<detail::HostObject>(s.chip);
    s.config = detail::add_metrics(*s.host, s.metrics);

    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = static_cast<CUcontext>(context);
    check(api().enable(&enable), "cuptiRangeProfilerEnable");
    s.object = enable.pRangeProfilerObject;

    try {
        CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        size.pRangeProfilerObject = s.object;
        size.pMetricNames = s.names.data();
        size.numMetrics = s.names.size();
        size.maxNumOfRanges = kRanges;
        size.maxNumRangeTreeNodes = kRanges;
        check(api().counter_data_size(&size), "cuptiRangeProfilerGetCounterDataSize");
        s.counter_data.resize(size.counterDataSize);
    } catch (...) {
        // No destructor runs for a constructor that throws: left enabled, the profiler would
        // refuse every later Enable on this context.
        CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = s.object;
        api().disable(&p);
        throw;
    }
}

RangeProfiler::~RangeProfiler() {
    if (!state_->object) return;
    CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = state_->object;
    api().disable(&p);  // nothing to do about a failure while tearing down
}

const std::string& RangeProfiler::chip() const { return state_->chip; }
std::size_t RangeProfiler::passes() const { return state_->config.passes; }

std::vector<Counter> RangeProfiler::collect(const std::function<void()>& prepare, const std::function<void()>& work) {
    State& s = *state_;
    // A fresh counter data image and configuration per collection: each holds one range.
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = s.object;
    init.counterDataSize = s.counter_data.size();
    init.pCounterData = s.counter_data.data();
    check(api().counter_data_initialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    set.pRangeProfilerObject = s.object;
    set.configSize = s.config.image.size();
    set.pConfig = s.config.image.data();
    set.counterDataImageSize = s.counter_data.size();
    set.pCounterDataImage = s.counter_data.data();
    set.range = CUPTI_UserRange;
    set.replayMode = CUPTI_UserReplay;
    set.maxRangesPerPass = kRanges;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    check(api().set_config(&set), "cuptiRangeProfilerSetConfig");

    Target target(s.object);
    replay(target, s.config.passes, prepare, work);

    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = s.object;
    check(api().decode(&decode), "cuptiRangeProfilerDecodeData");
    if (decode.numOfRangeDropped != 0)
        throw std::runtime_error("cuptiRangeProfilerDecodeData dropped " + std::to_string(decode.numOfRangeDropped) +
                                 " ranges");
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = s.counter_data.data();
    info.counterDataImageSize = s.counter_data.size();
    check(api().counter_data_info(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges != kRanges)
        throw std::runtime_error("cuptiRangeProfilerGetCounterDataInfo: " + std::to_string(info.numTotalRanges) +
                                 " ranges in the counter data, not 1");

    std::vector<double> values(s.metrics.size());
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject = s.host->get();
    eval.pCounterDataImage = s.counter_data.data();
    eval.counterDataImageSize = s.counter_data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = s.names.data();
    eval.numMetrics = s.names.size();
    eval.pMetricValues = values.data();
    check(api().evaluate(&eval), "cuptiProfilerHostEvaluateToGpuValues");
    std::vector<std::pair<std::string, double>> named;
    for (std::size_t i = 0; i < values.size(); ++i) named.emplace_back(s.metrics[i], values[i]);
    return counters_of(named, s.units);
}

#else  // built without the CUDA toolkit

struct RangeProfiler::State {};

RangeProfiler::RangeProfiler(void*, int, std::vector<std::string>) {
    throw Unavailable("CUPTI is unavailable: memwall was built without the CUDA toolkit (/usr/local/cuda)");
}
RangeProfiler::~RangeProfiler() = default;
const std::string& RangeProfiler::chip() const { throw std::logic_error("RangeProfiler: no CUPTI"); }
std::size_t RangeProfiler::passes() const { return 0; }
std::vector<Counter> RangeProfiler::collect(const std::function<void()>&, const std::function<void()>&) {
    throw std::logic_error("RangeProfiler: no CUPTI");
}

#endif

}  // namespace memwall::cupti
