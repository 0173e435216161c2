#include "cuda_emu/traffic.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "cuda_emu/sector_cache.hpp"

namespace memwall::emu {

namespace {
thread_local TrafficStats last;
thread_local std::vector<TrafficScope*> scopes;
}  // namespace

AccessCounts& AccessCounts::operator+=(const AccessCounts& o) {
    bytes += o.bytes;
    accesses += o.accesses;
    requests += o.requests;
    sectors += o.sectors;
    l2_sectors += o.l2_sectors;
    return *this;
}

SharedAccessCounts& SharedAccessCounts::operator+=(const SharedAccessCounts& o) {
    bytes += o.bytes;
    accesses += o.accesses;
    requests += o.requests;
    return *this;
}

SharedTraffic& SharedTraffic::operator+=(const SharedTraffic& o) {
    load += o.load;
    store += o.store;
    atomic += o.atomic;
    return *this;
}

HostAccessCounts& HostAccessCounts::operator+=(const HostAccessCounts& o) {
    bytes += o.bytes;
    accesses += o.accesses;
    requests += o.requests;
    sectors += o.sectors;
    return *this;
}

HostTraffic& HostTraffic::operator+=(const HostTraffic& o) {
    load += o.load;
    store += o.store;
    atomic += o.atomic;
    return *this;
}

TensorFlops& TensorFlops::operator+=(const TensorFlops& o) {
    bf16 += o.bf16;
    f16 += o.f16;
    tf32 += o.tf32;
    return *this;
}

TrafficStats& TrafficStats::operator+=(const TrafficStats& o) {
    counted = launches == 0 ? o.counted : counted && o.counted;
    launches += o.launches;
    load += o.load;
    store += o.store;
    atomic += o.atomic;
    distinct_sectors += o.distinct_sectors;
    distinct_sectors_read += o.distinct_sectors_read;
    distinct_sectors_written += o.distinct_sectors_written;
    dram_read_bytes += o.dram_read_bytes;
    dram_write_bytes += o.dram_write_bytes;
    shared += o.shared;
    host += o.host;
    tensor += o.tensor;
    return *this;
}

TrafficStats last_traffic() { return last; }

void detail::publish_traffic(const TrafficStats& s) {
    last = s;
    for (TrafficScope* scope : scopes) scope->stats_ += s;
}

std::uint64_t detail::scope_generation() { return scopes.empty() ? 0 : scopes.front()->generation_; }

TrafficScope::TrafficScope() {
    static std::atomic<std::uint64_t> generations{0};
    generation_ = scopes.empty() ? ++generations : scopes.front()->generation_;
    scopes.push_back(this);
}

TrafficScope::~TrafficScope() { scopes.erase(std::find(scopes.begin(), scopes.end(), this)); }

std::vector<Counter> traffic_counters(const TrafficStats& s) {
    if (!s.counted)
        throw std::invalid_argument(
            "cuda-emu traffic was not counted: compile the kernel's launcher with "
            "memwall_cuda_emu_sources (cmake/MemwallCudaEmu.cmake)");
    std::vector<Counter> out;
    auto add = [&](std::string name, std::uint64_t value, std::string unit) {
        out.push_back({std::move(name), static_cast<double>(value), std::move(unit), CounterSource::emu});
    };
    add("emu.global_load_bytes", s.load.bytes, "B");
    add("emu.global_store_bytes", s.store.bytes, "B");
    add("emu.global_atomic_bytes", s.atomic.bytes, "B");
    add("emu.global_loads", s.load.accesses, "accesses");
    add("emu.global_stores", s.store.accesses, "accesses");
    add("emu.global_atomics", s.atomic.accesses, "accesses");
    add("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", s.load.requests, "requests");
    add("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", s.store.requests, "requests");
    add("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", s.atomic.requests, "requests");
    add("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", s.load.sectors, "sectors");
    add("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", s.store.sectors, "sectors");
    add("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", s.atomic.sectors, "sectors");
    add("lts__t_sectors_op_read.sum", s.load.l2_sectors, "sectors");
    add("lts__t_sectors_op_write.sum", s.store.l2_sectors, "sectors");
    add("lts__t_sectors_op_atom.sum", s.atomic.l2_sectors, "sectors");
    add("lts__t_bytes.sum", (s.load.l2_sectors + s.store.l2_sectors + s.atomic.l2_sectors) * kSectorBytes, "B");
    add("emu.distinct_sectors", s.distinct_sectors, "sectors");
    add("emu.distinct_sectors_read", s.distinct_sectors_read, "sectors");
    add("emu.distinct_sectors_written", s.distinct_sectors_written, "sectors");
    add("dram__bytes_read.sum", s.dram_read_bytes, "B");
    add("dram__bytes_write.sum", s.dram_write_bytes, "B");
    // Shared memory. CUPTI's sass_data_bytes count the bytes each thread's access moves, as
    // these do. Its warp-level counterparts differ: smsp__inst_executed_op_shared_{ld,st} count
    // SASS instructions (a struct copy is several), and shared atomics are spread over three
    // metrics (op_shared_atom, _atom_dot_alu, _atom_dot_cas); the requests keep emu.* names.
    add("sm__sass_data_bytes_mem_shared_op_ld.sum", s.shared.load.bytes, "B");
    add("sm__sass_data_bytes_mem_shared_op_st.sum", s.shared.store.bytes, "B");
    add("sm__sass_data_bytes_mem_shared_op_atom.sum", s.shared.atomic.bytes, "B");
    add("emu.shared_loads", s.shared.load.accesses, "accesses");
    add("emu.shared_stores", s.shared.store.accesses, "accesses");
    add("emu.shared_atomics", s.shared.atomic.accesses, "accesses");
    add("emu.shared_load_requests", s.shared.load.requests, "requests");
    add("emu.shared_store_requests", s.shared.store.requests, "requests");
    add("emu.shared_atomic_requests", s.shared.atomic.requests, "requests");
    // Mapped host memory: no CUPTI metric counts its sectors per warp request (the nearest,
    // L2's sysmem-aperture sectors, come after L1 hits); the names stay emu.*.
    if (s.host.touched()) {
        add("emu.host_load_bytes", s.host.load.bytes, "B");
        add("emu.host_store_bytes", s.host.store.bytes, "B");
        add("emu.host_atomic_bytes", s.host.atomic.bytes, "B");
        add("emu.host_loads", s.host.load.accesses, "accesses");
        add("emu.host_stores", s.host.store.accesses, "accesses");
        add("emu.host_atomics", s.host.atomic.accesses, "accesses");
        add("emu.host_load_requests", s.host.load.requests, "requests");
        add("emu.host_store_requests", s.host.store.requests, "requests");
        add("emu.host_atomic_requests", s.host.atomic.requests, "requests");
        add("emu.host_sectors_read", s.host.load.sectors, "sectors");
        add("emu.host_sectors_written", s.host.store.sectors, "sectors");
        add("emu.host_sectors_atomic", s.host.atomic.sectors, "sectors");
        add("emu.host_read_bytes", s.host.load.sectors * kSectorBytes, "B");
        add("emu.host_write_bytes", s.host.store.sectors * kSectorBytes, "B");
    }
    // All three when any ran, so an emulated count replaces a model's of each.
    if (s.tensor.any()) {
        add(std::string(counters::kFlopsBf16Tensor), s.tensor.bf16, "FLOP");
        add(std::string(counters::kFlopsF16Tensor), s.tensor.f16, "FLOP");
        add(std::string(counters::kFlopsTf32Tensor), s.tensor.tf32, "FLOP");
    }
    return out;
}

}  // namespace memwall::emu
