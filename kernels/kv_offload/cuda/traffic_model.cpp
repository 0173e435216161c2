#include "kernels/kv_offload/cuda/traffic_model.hpp"

#include <algorithm>
#include <limits>

#include "kernels/kit/emu_hierarchy.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

using kv_cuda::Method;

double d(long long x) { return static_cast<double>(x); }

}  // namespace

kv_cuda::Shape cuda_shape(const KvProblem& p) {
    const auto i = [](std::int64_t x) { return static_cast<int>(x); };
    kv_cuda::Shape s;
    s.pages = i(p.pages());
    s.page_tokens = i(p.page_tokens);
    s.heads = i(p.heads);
    s.head_dim = i(p.head_dim);
    s.selected = i(p.selected());
    s.steps = i(p.steps);
    return s;
}

KvCudaTraffic kv_cuda_traffic(const KvProblem& p, Method m, const kv_cuda::Tuning& t) {
    const kv_cuda::Shape s = cuda_shape(p);
    const long long steps = s.steps, heads = s.heads, dim = s.head_dim;
    const long long tokens = static_cast<long long>(s.selected) * s.page_tokens;  // per step
    const long long per_launch = kv_cuda::partials_per_launch(t), launches = kv_cuda::chunks(s, m, t);
    const long long partials = launches * per_launch;                                // per head and step
    const double pages = d(s.selected) * d(static_cast<long long>(s.page_bytes()));  // one step's
    const bool looks_up = m == Method::resident || m == Method::zero_copy;
    KvCudaTraffic tr;
    // Per step. Attention: every warp of every launch loads its head's query; each token's warp
    // loads the token's page number (32 lanes, 4 bytes each) when the pages are looked up, then
    // its key and value rows; each warp stores its partial (head_dim + max and sum).
    double loads = 4 * d(launches * heads * per_launch * dim) + (looks_up ? 4 * d(heads * tokens * 32) : 0);
    (m == Method::zero_copy ? tr.host_loads : loads) += pages;
    double stores = 4 * d(heads * partials * (dim + 2));
    // Combine: thread c of head h reads every partial's max twice, its sum and its element c.
    loads += 16 * d(heads * dim * partials);
    stores += 4 * d(heads * dim);
    tr.loads = d(steps) * loads;
    tr.stores = d(steps) * stores;
    tr.host_loads *= d(steps);
    if (m == Method::zero_copy) {
        tr.host_requests = d(steps * heads * tokens * 2 * (dim / 32));
        tr.host_sectors = tr.host_requests * (t.misalign % 32 == 0 ? 4 : 5);
    }
    if (m == Method::staged || m == Method::pipelined) {
        tr.copied = d(steps) * pages;
        tr.copies = d(steps * launches);
    }
    const double q = 4 * d(heads * dim), out = 4 * d(heads * dim), ids = looks_up ? 4 * d(s.selected) : 0;
    const double partial_bytes = 4 * d(heads * partials * (dim + 2));
    // Per step: the attention reads the query, the selections and the pages (from the device but
    // for zero_copy; staging's pages were written by the copy) and writes the partials back to
    // DRAM; the combine reads them from L2 (a few KiB, kept between a pass's launches) before
    // writing the output. A page selected again in the next step may still be in L2 too: not
    // counted, so this is an upper bound.
    const double device_pages = m == Method::zero_copy ? 0 : pages;
    const double staging_writes = m == Method::staged || m == Method::pipelined ? pages : 0;
    tr.dram = d(steps) * (q + ids + device_pages + staging_writes + partial_bytes + out);
    tr.workspace = partial_bytes + (staging_writes > 0 ? 2 * pages : 0);  // staging: pinned and device
    // Every step's queries and outputs and selections, the KV in device memory (resident), the
    // partials and the staging buffer.
    const double kv_device = m == Method::resident ? d(s.pages) * d(static_cast<long long>(s.page_bytes())) : 0;
    tr.working_set = d(steps) * (q + out + ids) + kv_device + partial_bytes + staging_writes;
    return tr;
}

std::vector<Counter> kv_cuda_model(const KvProblem& p, Method m, const kv_cuda::Tuning& t) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const KvCudaTraffic tr = kv_cuda_traffic(p, m, t);
    const std::vector<TrafficStream> streams = {
        {tr.working_set, std::max(0.0, tr.loads + tr.stores - tr.dram)},
        {inf, tr.dram},
    };
    std::vector<Counter> out = byte_model(p.flops(), p.min_bytes(), tr.workspace, kit::emu_gpu_hierarchy(), streams);
    const bool zero_copy = m == Method::zero_copy;
    out.push_back({"tier.bytes", zero_copy ? 32 * tr.host_sectors : tr.copied, "B", CounterSource::model});
    out.push_back({"tier.requests", zero_copy ? tr.host_requests : tr.copies, "", CounterSource::model});
    if (zero_copy) out.push_back({"tier.sectors", tr.host_sectors, "sectors", CounterSource::model});
    return out;
}

}  // namespace memwall
