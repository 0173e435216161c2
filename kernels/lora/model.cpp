// Byte models of the lora CPU variants (models.hpp), pass by pass.
#include <limits>

#include "kernels/lora/cpu_kernels.hpp"
#include "kernels/lora/models.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

std::int64_t adapter_calls(const LoraProblem& p, std::int64_t group) {
    return group <= 0 ? 1 : (p.adapters + group - 1) / group;
}

std::vector<Counter> lora_model(const LoraProblem& p, LoraMethod method, const MemoryHierarchy& mh,
                                std::int64_t group) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double e = static_cast<double>(p.element_bytes());
    const double M = static_cast<double>(p.m), K = static_cast<double>(p.k), N = static_cast<double>(p.n),
                 R = static_cast<double>(p.r), A = static_cast<double>(p.adapters);
    const double x = e * M * K, w = e * K * N, y = e * M * N;
    const double mask = 4.0 * M * static_cast<double>(p.mask_words());
    const double base = x + w + y;
    double bytes = base, workspace = 0;
    switch (method) {
        case LoraMethod::base: break;  // below
        case LoraMethod::unfused: {
            // dropout: X and the mask read, X' written; S = X'·A: X' read, S written; T = S·B: S
            // read, T written; Y += α·T: Y and T read, Y written.
            const double s = e * M * R, ab = e * A * R * (K + N);
            bytes += (x + mask + x) + (x + s + ab) + (s + y) + 3.0 * y;
            workspace = x + s + y;
            break;
        }
        case LoraMethod::fused:
        case LoraMethod::multi_adapter: {
            // After the base GEMM has written Y, one pass: X and the mask read, A and B (r padded
            // to whole register blocks) once, Y read and written; S (fp32) stays in the cores'
            // caches, a task's rows at a time. fused runs one base GEMM per adapter, each streaming
            // W; multi_adapter one per group of adapters.
            const double rp = static_cast<double>(lora_cpu::padded_rank(p.r));
            const double s = 4.0 * M * rp, ab = 4.0 * A * (K * rp + R * N);
            const double gemms = method == LoraMethod::fused ? A : static_cast<double>(adapter_calls(p, group));
            bytes += (x + mask + ab) + 2.0 * y + (gemms - 1.0) * w;
            workspace = s + 4.0 * A * K * rp;
            break;
        }
    }
    // base computes X·W alone: its FLOPs and compulsory bytes are the GEMM's.
    if (method == LoraMethod::base) return byte_model(2.0 * M * K * N, base, 0, mh, {{inf, base}});
    return byte_model(p.flops(), p.min_bytes(), workspace, mh, {{inf, bytes}});
}

}  // namespace memwall
