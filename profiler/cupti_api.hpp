// libcupti's functions memwall calls, opened once per process (dlopen: memwall starts and runs
// its other commands where CUPTI is missing), and the checks every call goes through. Internal to
// the profiler's CUPTI files (cupti_host.cpp, cupti_range.cpp, cupti_activity.cpp); only built with the CUDA toolkit.
#pragma once

#include <cupti_activity.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <string>
#include <vector>

#include "profiler/cupti_host.hpp"

namespace memwall::cupti::detail {

struct Api {
    // Host side: needs no GPU.
    decltype(&cuptiGetResultString) result_string = nullptr;
    decltype(&cuptiProfilerHostGetSupportedChips) supported_chips = nullptr;
    decltype(&cuptiProfilerHostInitialize) initialize = nullptr;
    decltype(&cuptiProfilerHostDeinitialize) deinitialize = nullptr;
    decltype(&cuptiProfilerHostGetBaseMetrics) base_metrics = nullptr;
    decltype(&cuptiProfilerHostGetMetricProperties) metric_properties = nullptr;
    decltype(&cuptiProfilerHostConfigAddMetrics) add_metrics = nullptr;
    decltype(&cuptiProfilerHostGetConfigImageSize) config_image_size = nullptr;
    decltype(&cuptiProfilerHostGetConfigImage) config_image = nullptr;
    decltype(&cuptiProfilerHostGetNumOfPasses) passes = nullptr;
    decltype(&cuptiProfilerHostEvaluateToGpuValues) evaluate = nullptr;
    // Target side: the range profiler on a device's context.
    decltype(&cuptiProfilerInitialize) profiler_initialize = nullptr;
    decltype(&cuptiDeviceGetChipName) chip_name = nullptr;
    decltype(&cuptiRangeProfilerEnable) enable = nullptr;
    decltype(&cuptiRangeProfilerDisable) disable = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataSize) counter_data_size = nullptr;
    decltype(&cuptiRangeProfilerCounterDataImageInitialize) counter_data_initialize = nullptr;
    decltype(&cuptiRangeProfilerSetConfig) set_config = nullptr;
    decltype(&cuptiRangeProfilerStart) start = nullptr;
    decltype(&cuptiRangeProfilerStop) stop = nullptr;
    decltype(&cuptiRangeProfilerPushRange) push_range = nullptr;
    decltype(&cuptiRangeProfilerPopRange) pop_range = nullptr;
    decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
    decltype(&cuptiRangeProfilerGetCounterDataInfo) counter_data_info = nullptr;
    // The Activity API: kernels' GPU timestamps.
    decltype(&cuptiActivityRegisterCallbacks) activity_register_callbacks = nullptr;
    decltype(&cuptiActivityEnable) activity_enable = nullptr;
    decltype(&cuptiActivityDisable) activity_disable = nullptr;
    decltype(&cuptiActivityFlushAll) activity_flush_all = nullptr;
    decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
};

// The toolkit's libcupti: by its soname on the loader's path, else where the toolkit memwall was
// built with keeps it. Throws Unavailable when it cannot be loaded or lacks a function.
const Api& api();

// Throws std::runtime_error naming `call` and CUPTI's description of `r` unless it succeeded.
void check(CUptiResult r, const char* call);

// A range-profiler host object of one chip: builds configurations and evaluates counter data.
class HostObject {
  public:
    explicit HostObject(const std::string& chip);
    ~HostObject();
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;
    CUpti_Profiler_Host_Object* get() const { return object_; }

  private:
    CUpti_Profiler_Host_Object* object_ = nullptr;
};

// Adds `metrics` (known to be the chip's) to `host`'s configuration: its config image and passes.
MetricConfig add_metrics(const HostObject& host, const std::vector<std::string>& metrics);

}  // namespace memwall::cupti::detail
