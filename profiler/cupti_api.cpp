#include "profiler/cupti_api.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <type_traits>

#include "profiler/cupti_host.hpp"

namespace memwall::cupti::detail {

const Api& api() {
    static const Api loaded = [] {
        void* lib = dlopen(MEMWALL_CUPTI_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (!lib) lib = dlopen(MEMWALL_CUPTI_TOOLKIT_PATH, RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            throw Unavailable(std::string("cannot load CUPTI (" MEMWALL_CUPTI_SONAME ", nor ") +
                              MEMWALL_CUPTI_TOOLKIT_PATH + "): " + dlerror());
        auto bind = [lib](auto& f, const char* symbol) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, symbol));
            if (!f) throw Unavailable(std::string(MEMWALL_CUPTI_SONAME " lacks ") + symbol);
        };
        Api a;
        bind(a.result_string, "cuptiGetResultString");
        bind(a.supported_chips, "cuptiProfilerHostGetSupportedChips");
        bind(a.initialize, "cuptiProfilerHostInitialize");
        bind(a.deinitialize, "cuptiProfilerHostDeinitialize");
        bind(a.base_metrics, "cuptiProfilerHostGetBaseMetrics");
        bind(a.metric_properties, "cuptiProfilerHostGetMetricProperties");
        bind(a.add_metrics, "cuptiProfilerHostConfigAddMetrics");
        bind(a.config_image_size, "cuptiProfilerHostGetConfigImageSize");
        bind(a.config_image, "cuptiProfilerHostGetConfigImage");
        bind(a.passes, "cuptiProfilerHostGetNumOfPasses");
        bind(a.evaluate, "cuptiProfilerHostEvaluateToGpuValues");
        bind(a.profiler_initialize, "cuptiProfilerInitialize");
        bind(a.chip_name, "cuptiDeviceGetChipName");
        bind(a.enable, "cuptiRangeProfilerEnable");
        bind(a.disable, "cuptiRangeProfilerDisable");
        bind(a.counter_data_size, "cuptiRangeProfilerGetCounterDataSize");
        bind(a.counter_data_initialize, "cuptiRangeProfilerCounterDataImageInitialize");
        bind(a.set_config, "cuptiRangeProfilerSetConfig");
        bind(a.start, "cuptiRangeProfilerStart");
        bind(a.stop, "cuptiRangeProfilerStop");
        bind(a.push_range, "cuptiRangeProfilerPushRange");
        bind(a.pop_range, "cuptiRangeProfilerPopRange");
        bind(a.decode, "cuptiRangeProfilerDecodeData");
        bind(a.counter_data_info, "cuptiRangeProfilerGetCounterDataInfo");
        bind(a.activity_register_callbacks, "cuptiActivityRegisterCallbacks");
        bind(a.activity_enable, "cuptiActivityEnable");
        bind(a.activity_disable, "cuptiActivityDisable");
        bind(a.activity_flush_all, "cuptiActivityFlushAll");
        bind(a.next_record, "cuptiActivityGetNextRecord");
        return a;
    }();
    return loaded;
}

void check(CUptiResult r, const char* call) {
    if (r == CUPTI_SUCCESS) return;
    const char* text = nullptr;
    if (api().result_string(r, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI result";
    throw std::runtime_error(std::string(call) + " failed: " + text + " (" + std::to_string(static_cast<int>(r)) + ")");
}

HostObject::HostObject(const std::string& chip) {
    CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    check(api().initialize(&p), "cuptiProfilerHostInitialize");
    object_ = p.pHostObject;
}

HostObject::~HostObject() {
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = object_;
    api().deinitialize(&p);  // nothing to do about a failure while tearing down
}

}  // namespace memwall::cupti::detail
