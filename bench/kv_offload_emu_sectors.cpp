// kv_offload's zero_copy on cuda-emu (issue 17, acceptance 3): the host-memory sectors its kernel
// reads through mapped pinned memory, with the pages placed on a 128-byte boundary and shifted
// by a few misalignments, against the minimum (the tier's bytes / 32), per page size. Each warp
// request reads 128 contiguous bytes of a key or value row: 4 sectors when it starts on a 32-byte
// boundary, 5 when not, so a shift by a whole sector (32, 64 bytes) costs nothing at sector
// granularity and any other shift 25%. These are exact counts of the kernel's access stream
// made on the CPU, not GPU measurements.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/kv_offload/cuda/device_case.hpp"
#include "kernels/kv_offload/cuda/traffic_model.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/register_cuda.hpp"
#include "kernels/kv_offload/scratch_file.hpp"

namespace {

using namespace memwall;

struct Row {
    emu::TrafficStats s;
    double model_sectors = 0;
    std::string check;
};

Row run(const KvWorkload& w, int misalign) {
    const KvProblem& p = w.problem();
    kv_cuda::Tuning t;
    t.misalign = misalign;
    std::vector<std::int32_t> ids;
    auto device =
        kv_cuda::cuda_emu::make_device_case(cuda_shape(p), kv_cuda::Method::zero_copy, t, cuda_inputs(w, ids));
    device->poison();
    Row r;
    {
        emu::TrafficScope scope;
        device->run();
        r.s = scope.stats();
    }
    std::vector<float> out(device->output_size());
    device->download(out.data());
    const Check ch = w.check(out.data());
    r.check = ch.ok ? "ok" : ch.message;
    r.model_sectors = kv_cuda_traffic(p, kv_cuda::Method::zero_copy, t).host_sectors;
    return r;
}

}  // namespace

int main() {
    std::printf(
        "kv_offload/zero_copy on cuda-emu: host-memory sectors read by the kernel (exact counts of its access "
        "stream on the CPU, not GPU measurements)\n"
        "2 heads of 64, 16 pages, 4 selected a step (reuse 0.5), 2 steps; splits 8, warps 4; minimum = tier "
        "bytes / 32\n\n");
    std::printf("%10s %8s %11s %9s %12s %12s %12s %7s %6s\n", "page", "misalign", "tier bytes", "requests", "sectors",
                "minimum", "model", "x min", "check");
    for (std::int64_t page_tokens : {1, 4, 16, 64}) {
        KvProblem p;
        p.page_tokens = page_tokens;
        p.context = 16 * page_tokens;
        p.heads = 2;
        p.head_dim = 64;
        p.select = 0.25;
        p.reuse = 0.5;
        p.steps = 2;
        const KvWorkload w(p, 1, kv_scratch_directory());
        const double minimum = p.tier_bytes() / 32;
        for (int misalign : {0, 4, 32, 64, 68}) {
            const Row r = run(w, misalign);
            std::printf("%8zu B %6d B %11.0f %9llu %12llu %12.0f %12.0f %7.3f %6s\n", p.page_bytes(), misalign,
                        p.tier_bytes(), static_cast<unsigned long long>(r.s.host.load.requests),
                        static_cast<unsigned long long>(r.s.host.load.sectors), minimum, r.model_sectors,
                        static_cast<double>(r.s.host.load.sectors) / minimum, r.check.c_str());
        }
    }
    return 0;
}
