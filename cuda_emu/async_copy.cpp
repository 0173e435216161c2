#include "cuda_emu/async_copy.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_emu/arena.hpp"
#include "cuda_emu/launch.hpp"
#include "cuda_emu/recorder.hpp"
#include "cuda_emu/scheduler.hpp"

namespace memwall::emu {

namespace {

using detail::Site;

struct Copy {
    unsigned char* dst;
    int bytes;      // written to shared memory when it lands
    int src_bytes;  // of them read from global memory at issue; the rest are zeros
    std::uintptr_t site;
    unsigned char data[16];
};

// One thread's copies in issue order, and where each committed group ends among them; the
// copies after the last end are not yet committed.
struct Queue {
    std::vector<Copy> copies;
    std::vector<std::size_t> group_ends;
};

// The running block's queues, by linear thread index (all blocks run on the launching thread).
thread_local std::vector<Queue> queues;

// Keys under which the copies' accesses form warp requests (one per instruction kind).
constinit const char ca_key = 0;
constinit const char cg_key = 0;

std::string address(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

Queue& queue_of_thread(const char* instruction, const Site& site) {
    const uint3 t = detail::thread_index();
    const dim3 b = detail::block_dims();
    const std::size_t linear = t.x + b.x * (t.y + std::size_t{b.y} * t.z);
    if (linear >= queues.size())
        throw cuda::LaunchError(std::string("cuda-emu: ") + instruction + " (" + where(site) +
                                ") called outside a kernel");
    return queues[linear];
}

bool aligned(const void* p, int bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % static_cast<unsigned>(bytes) == 0;
}

bool in_global_memory(const void* p, std::size_t bytes) {
    return detail::Arena::instance().holds(p, bytes) || detail::Arena::host().holds(p, bytes);
}

}  // namespace

void cp_async(void* smem, const void* gmem, int bytes, int src_bytes, CacheOp op, const Site& site) {
    const std::string name = op == CacheOp::ca ? "cp.async.ca.shared.global" : "cp.async.cg.shared.global";
    auto fail = [&](const std::string& why) { throw cuda::LaunchError(name + " (" + where(site) + "): " + why); };
    if (bytes != 4 && bytes != 8 && bytes != 16) fail(std::to_string(bytes) + " bytes; 4, 8 or 16 only");
    if (op == CacheOp::cg && bytes != 16) fail(std::to_string(bytes) + " bytes; .cg copies 16");
    if (src_bytes < 0 || src_bytes > bytes)
        fail("source size " + std::to_string(src_bytes) + " is not in [0, " + std::to_string(bytes) + "]");
    if (!aligned(smem, bytes))
        fail("shared address " + address(smem) + " is not " + std::to_string(bytes) + "-byte aligned");
    if (!detail::in_shared_memory(smem, static_cast<std::size_t>(bytes)))
        fail("destination " + address(smem) + " is not in the block's shared memory");
    if (src_bytes > 0) {
        if (!aligned(gmem, bytes))
            fail("global address " + address(gmem) + " is not " + std::to_string(bytes) + "-byte aligned");
        if (!in_global_memory(gmem, static_cast<std::size_t>(src_bytes)))
            fail("source " + address(gmem) + " is not in one device allocation");
    }
    Queue& q = queue_of_thread(name.c_str(), site);
    Copy c{static_cast<unsigned char*>(smem),
           bytes,
           src_bytes,
           reinterpret_cast<std::uintptr_t>(op == CacheOp::ca ? &ca_key : &cg_key),
           {}};
    // The source is read now, the destination written when the copy lands.
    if (src_bytes > 0) {
        std::memcpy(c.data, gmem, static_cast<std::size_t>(src_bytes));
        detail::record_access(gmem, static_cast<std::size_t>(src_bytes), detail::AccessKind::load, c.site,
                              op == CacheOp::ca);
    }
    q.copies.push_back(c);
}

void cp_async_commit(const Site& site) {
    Queue& q = queue_of_thread("cp.async.commit_group", site);
    q.group_ends.push_back(q.copies.size());
}

void cp_async_wait(int n, const Site& site) {
    Queue& q = queue_of_thread("cp.async.wait_group", site);
    if (n < 0)
        throw cuda::LaunchError("cp.async.wait_group (" + where(site) + "): " + std::to_string(n) + " is negative");
    const std::size_t groups = q.group_ends.size(), keep = static_cast<std::size_t>(n);
    if (groups <= keep) return;
    const std::size_t landed_groups = groups - keep, landed = q.group_ends[landed_groups - 1];
    for (std::size_t i = 0; i < landed; ++i) {
        Copy& c = q.copies[i];
        std::memset(c.data + c.src_bytes, 0, static_cast<std::size_t>(c.bytes - c.src_bytes));
        std::memcpy(c.dst, c.data, static_cast<std::size_t>(c.bytes));
        detail::record_access(c.dst, static_cast<std::size_t>(c.bytes), detail::AccessKind::store, c.site);
    }
    q.copies.erase(q.copies.begin(), q.copies.begin() + static_cast<std::ptrdiff_t>(landed));
    q.group_ends.erase(q.group_ends.begin(), q.group_ends.begin() + static_cast<std::ptrdiff_t>(landed_groups));
    for (std::size_t& end : q.group_ends) end -= landed;
}

namespace detail {
void begin_block_copies(unsigned threads) {
    if (queues.size() != threads) queues.resize(threads);
    for (Queue& q : queues) {
        q.copies.clear();
        q.group_ends.clear();
    }
}

void end_launch_copies() { queues.clear(); }
}  // namespace detail

}  // namespace memwall::emu
