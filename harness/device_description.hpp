// What a run measures on, recorded with it (Store::set_run_properties), shown by `memwall show`
// and exported by `memwall export --format json`: for each backend of the run, properties under
// "<backend>." keys, machine-readable (sizes in bytes, clocks in Hz, bandwidth in B/s), plus a
// one-line "<backend>.summary" for people.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// cpu: the CPU model, logical CPUs online, the threads kernels use, and the caches of `mh`.
// cuda: CUDA device 0 as cudaGetDeviceProperties describes it (name, compute capability, SMs,
//   clocks, L2, memory bus width and clock, the peak bandwidth they give); only a summary
//   saying so when it cannot be queried.
// cuda-emu: "emulation", the host CPU, and the L1 and L2 models of the emulator's default
//   options (those the cuda-emu cases run with): its traffic counters model that GPU memory
//   system; its times are CPU times.
std::map<std::string, std::string> describe_device(Backend b, const MemoryHierarchy& mh);

// The properties of every backend of a run.
std::map<std::string, std::string> describe_devices(const std::vector<Backend>& backends, const MemoryHierarchy& mh);

// The "<backend>.summary" properties as (backend, summary), in the order of kAllBackends.
std::vector<std::pair<std::string, std::string>> device_summaries(const std::map<std::string, std::string>& properties);

}  // namespace memwall
