#include "harness/device_description.hpp"

#include <unistd.h>

#include <cstdio>

#include "cuda_emu/options.hpp"
#include "core/bytes.hpp"
#include "core/isa.hpp"
#include "core/machine.hpp"
#include "gpu/device_properties.hpp"

namespace memwall {

namespace {

std::string whole(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return s;
}

using Properties = std::map<std::string, std::string>;

Properties cpu(const MemoryHierarchy& mh) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    Properties p{{"cpu.model", cpu_model()},
                 {"cpu.logical_cpus", std::to_string(online)},
                 {"cpu.threads", std::to_string(mh.cpus)},
                 {"cpu.isa", std::string(isa_name(active_isa()))},
                 {"cpu.host_isa", std::string(isa_name(host_isa()))}};
    std::string caches;
    for (const CacheLevel& c : mh.caches) {
        p["cpu." + c.name + "_bytes"] = std::to_string(c.bytes);
        p["cpu." + c.name + "_shared_by"] = std::to_string(c.shared_by);
        caches += (caches.empty() ? "" : ", ") + upper(c.name) + " " + format_bytes(static_cast<double>(c.bytes));
        if (c.shared_by > 1) caches += " (shared by " + std::to_string(c.shared_by) + ")";
    }
    p["cpu.summary"] = p["cpu.model"] + ": " + std::to_string(online) + " logical CPUs, " + std::to_string(mh.cpus) +
                       " kernel threads; " + caches + "; kernels " + isa_summary();
    return p;
}

Properties cuda() {
    const auto d = gpu::cuda_device_properties(0);
    if (!d) return {{"cuda.summary", "CUDA device 0 could not be queried"}};
    return {{"cuda.device_index", std::to_string(d->index)},
            {"cuda.name", d->name},
            {"cuda.compute_capability",
             std::to_string(d->compute_capability / 10) + "." + std::to_string(d->compute_capability % 10)},
            {"cuda.sms", std::to_string(d->sms)},
            {"cuda.sm_clock_hz", whole(d->sm_clock_hz)},
            {"cuda.memory_clock_hz", whole(d->memory_clock_hz)},
            {"cuda.memory_bus_bits", std::to_string(d->memory_bus_bits)},
            {"cuda.memory_bandwidth_bytes_per_s", whole(d->memory_bandwidth)},
            {"cuda.l2_bytes", std::to_string(d->l2_bytes)},
            {"cuda.global_memory_bytes", std::to_string(d->global_memory_bytes)},
            {"cuda.shared_per_block_optin_bytes", std::to_string(d->shared_per_block_optin)},
            {"cuda.summary", d->summary()}};
}

void add_cache_model(Properties& p, const std::string& level, const emu::CacheConfig& c) {
    const std::string k = "cuda-emu." + level + "_model_";
    p[k + "bytes"] = std::to_string(c.bytes);
    p[k + "line_bytes"] = std::to_string(c.line_bytes);
    p[k + "sector_bytes"] = std::to_string(c.sector_bytes);
    p[k + "ways"] = std::to_string(c.ways);
}

Properties cuda_emu() {
    const emu::EmulationOptions o;
    Properties p{{"cuda-emu.kind", "emulation"}, {"cuda-emu.host_cpu", cpu_model()}};
    add_cache_model(p, "l1", o.l1);
    add_cache_model(p, "l2", o.l2);
    p["cuda-emu.summary"] = "emulation, no GPU: CUDA kernels run on the CPU (" + cpu_model() +
                            "), times are CPU times; traffic through an L2 model of " +
                            format_bytes(static_cast<double>(o.l2.bytes)) + " (" + std::to_string(o.l2.ways) +
                            " ways, " + std::to_string(o.l2.line_bytes) + " B lines, " +
                            std::to_string(o.l2.sector_bytes) + " B sectors), L1 " +
                            format_bytes(static_cast<double>(o.l1.bytes)) + " per block";
    return p;
}

}  // namespace

std::map<std::string, std::string> describe_device(Backend b, const MemoryHierarchy& mh) {
    switch (b) {
        case Backend::cpu: return cpu(mh);
        case Backend::cuda: return cuda();
        case Backend::cuda_emu: return cuda_emu();
    }
    return {};
}

std::map<std::string, std::string> describe_devices(const std::vector<Backend>& backends, const MemoryHierarchy& mh) {
    std::map<std::string, std::string> out;
    for (Backend b : backends) out.merge(describe_device(b, mh));
    return out;
}

std::vector<std::pair<std::string, std::string>> device_summaries(
    const std::map<std::string, std::string>& properties) {
    std::vector<std::pair<std::string, std::string>> out;
    for (Backend b : kAllBackends) {
        const std::string name(to_string(b));
        if (auto it = properties.find(name + ".summary"); it != properties.end()) out.emplace_back(name, it->second);
    }
    return out;
}

}  // namespace memwall
