// A device case's run on cuda-emu as the traffic tests measure it: outputs poisoned, one run
// under a TrafficScope (every launch of it) and the last launch's counts, then its output.
#pragma once

#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/kit/device_case.hpp"

namespace memwall::test {

struct EmuTraffic {
    emu::TrafficStats all, last;  // every launch of the run; its last launch
    std::vector<float> output;
};

inline EmuTraffic counted_run(kit::DeviceCase& device) {
    device.poison();
    EmuTraffic x;
    {
        emu::TrafficScope scope;
        device.run();
        x.all = scope.stats();
    }
    x.last = emu::last_traffic();
    x.output.resize(device.output_size());
    device.download(x.output.data());
    return x;
}

}  // namespace memwall::test
