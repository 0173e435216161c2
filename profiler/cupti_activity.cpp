#include "profiler/cupti_activity.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "profiler/cupti_host.hpp"
#if defined(MEMWALL_HAVE_CUPTI)
#include "profiler/cupti_api.hpp"
#endif

namespace memwall::cupti {

std::string short_kernel_name(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                          &std::free);
    std::string s = status == 0 && demangled ? demangled.get() : name;
    for (const std::string anonymous = "(anonymous namespace)::"; s.find(anonymous) != std::string::npos;)
        s.erase(s.find(anonymous), anonymous.size());
    // Cut the parameters and template arguments (outermost first), then the namespaces.
    if (const auto paren = s.find('('); paren != std::string::npos) s.erase(paren);
    if (const auto angle = s.find('<'); angle != std::string::npos) s.erase(angle);
    if (const auto colons = s.rfind("::"); colons != std::string::npos) s.erase(0, colons + 2);
    // A return type the demangler puts first ("void f"): the last word is the name.
    if (const auto space = s.rfind(' '); space != std::string::npos) s.erase(0, space + 1);
    return s.empty() ? name : s;
}

std::vector<Counter> kernel_counters(const std::vector<KernelTime>& kernels) {
    struct Sum {
        std::string name;
        double seconds = 0;
        int launches = 0;
    };
    std::vector<Sum> sums;
    for (const KernelTime& k : kernels) {
        const std::string n = short_kernel_name(k.name);
        auto it = std::find_if(sums.begin(), sums.end(), [&](const Sum& s) { return s.name == n; });
        if (it == sums.end()) it = sums.insert(sums.end(), Sum{n});
        it->seconds += k.seconds;
        ++it->launches;
    }
    std::vector<Counter> out{{"kernels.count", static_cast<double>(kernels.size()), "launches", CounterSource::cupti}};
    for (const Sum& s : sums) {
        out.push_back({"kernel." + s.name + ".seconds", s.seconds, "s", CounterSource::cupti});
        if (s.launches > 1)
            out.push_back(
                {"kernel." + s.name + ".launches", static_cast<double>(s.launches), "launches", CounterSource::cupti});
    }
    return out;
}

#if defined(MEMWALL_HAVE_CUPTI)

namespace {

using detail::api;
using detail::check;

// CUPTI hands buffers to C callbacks: the records of the collection in progress land here.
std::mutex collected_mutex;
std::vector<KernelTime> collected;

constexpr std::size_t kBufferBytes = 1 << 20;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    // CUPTI wants 8-byte alignment; operator new gives 16.
    *buffer = static_cast<std::uint8_t*>(::operator new(kBufferBytes, std::nothrow));
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
    CUpti_Activity* record = nullptr;
    std::vector<KernelTime> got;
    while (api().next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        if (k->end <= k->start) continue;  // a record CUPTI could not time
        got.push_back({k->name ? k->name : "?", 1e-9 * static_cast<double>(k->end - k->start)});
    }
    ::operator delete(buffer);
    const std::lock_guard<std::mutex> lock(collected_mutex);
    collected.insert(collected.end(), got.begin(), got.end());
}

}  // namespace

std::vector<KernelTime> kernel_times(const std::function<void()>& work) {
    static const bool registered = [] {
        check(api().activity_register_callbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
        return true;
    }();
    (void)registered;
    {
        const std::lock_guard<std::mutex> lock(collected_mutex);
        collected.clear();
    }
    check(api().activity_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable(CONCURRENT_KERNEL)");
    try {
        work();
    } catch (...) {
        // The work's error is the one to report; its records are flushed now, so that none
        // arrives in the next collection.
        api().activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        api().activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        throw;
    }
    check(api().activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    check(api().activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityDisable(CONCURRENT_KERNEL)");
    const std::lock_guard<std::mutex> lock(collected_mutex);
    return std::move(collected);
}

#else  // built without the CUDA toolkit

std::vector<KernelTime> kernel_times(const std::function<void()>&) {
    throw Unavailable("CUPTI is unavailable: memwall was built without the CUDA toolkit (/usr/local/cuda)");
}

#endif

}  // namespace memwall::cupti
