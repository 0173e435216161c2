// The lora problem: reading and validating its axes, FLOPs and compulsory bytes, and
// LoRAFusion's shapes.
#include <string>

#include "core/errors.hpp"
#include "kernels/lora/lora.hpp"

namespace memwall {

LoraDtype lora_dtype(const std::string& name) {
    if (name == "fp32") return LoraDtype::fp32;
    if (name == "bf16") return LoraDtype::bf16;
    throw UsageError("lora: dtype must be fp32 or bf16, got '" + name + "'");
}

const char* lora_dtype_name(LoraDtype d) { return d == LoraDtype::bf16 ? "bf16" : "fp32"; }

LoraProblem LoraProblem::from(const Params& p) {
    LoraProblem x;
    x.m = p.integer("M");
    x.k = p.integer("K");
    x.n = p.integer("N");
    x.r = p.integer("r");
    x.adapters = p.integer("adapters");
    x.dropout = p.real("dropout");
    x.alpha = p.real("alpha");
    x.dtype = lora_dtype(p.str("dtype"));
    if (x.m < 1 || x.k < 1 || x.n < 1 || x.r < 1 || x.adapters < 1)
        throw UsageError("lora: M, K, N, r and adapters must be at least 1");
    if (x.adapters > x.m)
        throw UsageError("lora: " + std::to_string(x.adapters) +
                         " adapters need at least as many tokens (M = " + std::to_string(x.m) + ")");
    if (!(x.dropout >= 0.0 && x.dropout < 1.0)) throw UsageError("lora: dropout must be in [0, 1)");
    return x;
}

double LoraProblem::flops() const {
    const double M = static_cast<double>(m), K = static_cast<double>(k), N = static_cast<double>(n),
                 R = static_cast<double>(r);
    return 2.0 * M * K * N + 2.0 * M * K * R + 2.0 * M * R * N;
}

double LoraProblem::min_bytes() const {
    const double e = static_cast<double>(element_bytes());
    const double M = static_cast<double>(m), K = static_cast<double>(k), N = static_cast<double>(n),
                 R = static_cast<double>(r), A = static_cast<double>(adapters);
    return e * (M * K + K * N + M * N + A * R * (K + N)) + 4.0 * M * static_cast<double>(mask_words());
}

std::vector<std::string> lora_shape_names() { return {"lorafusion4096", "lorafusion5120", "lorafusion8192"}; }

std::vector<Preset> lora_shape_presets() {
    std::vector<Preset> out;
    for (const std::int64_t kn : {4096, 5120, 8192}) {
        Params p;
        p.set("K", kn);
        p.set("N", kn);
        p.set("r", std::int64_t{16});
        p.set("alpha", 16.0);
        p.set("dropout", 0.1);
        out.push_back({"shape", "lorafusion" + std::to_string(kn), p, {}});
    }
    return out;
}

}  // namespace memwall
