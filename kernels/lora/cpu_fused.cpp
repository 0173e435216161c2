// fused: LoRAFusion's idea on the CPU, per adapter: the base GEMM writes Y = X·W, then one pass
// over X and Y: per task of tokens, S = α/(1-p)·(mask ⊙ X)·A (dropout and scale applied as X is
// read, X' never written) and at once Y += S·B for those tokens, so S never leaves the cores'
// caches and Y is read and written once more, where unfused writes X', S and T and moves Y's size
// four times. (Writing S·B first and letting the GEMM accumulate onto it, through sgemm's beta or
// oneDNN's sum post-op, moves the same bytes but measured slower: oneDNN's post-op read of a bf16
// Y cost it 1-2 ms at M = 2048-4096.) Several adapters are separate fused calls, one per adapter's
// tokens, each with its own base GEMM over those rows; multi_adapter (cpu_multi_adapter.cpp)
// batches them instead.
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

namespace {

class Fused final : public Kernel {
  public:
    Fused(const LoraWorkload& w, const Tiles& tiles, std::vector<TokenRange> calls, std::string name)
        : w_(w),
          tiles_(tiles),
          calls_(std::move(calls)),
          name_(std::move(name)),
          weights_(adapter_weights(w)),
          s_(static_cast<std::size_t>(w.problem().m * weights_.rp)) {
        const LoraProblem& p = w.problem();
        for (const TokenRange& c : calls_) gemms_.emplace_back(p.dtype, c.end - c.begin, p.k, p.n, w.w_data());
    }

    void run(void* y, kit::PhaseTimes& phases) override {
        const LoraProblem& p = w_.problem();
        const std::size_t e = p.element_bytes();
        for (std::size_t i = 0; i < calls_.size(); ++i) {
            const TokenRange c = calls_[i];
            gemms_[i].run(element_offset(w_.x_data(), c.begin * p.k, e), element_offset(y, c.begin * p.n, e));
            phases.lap("gemm");
            lora_pass(w_, weights_, c.begin, c.end, tiles_, s_.data(), y);
            phases.lap("lora");
        }
    }

    double workspace_bytes() const override {
        double packed = 4.0 * static_cast<double>(weights_.a.size() + weights_.a32_quads.size()) +
                        2.0 * static_cast<double>(weights_.a16_quads.size() + weights_.b16_pairs.size());
        for (const Gemm& g : gemms_) packed += g.weights_bytes();
        return 4.0 * static_cast<double>(s_.size()) + packed;
    }

    std::string detail() const override {
        return name_ + ": " + std::to_string(calls_.size()) + (calls_.size() == 1 ? " call" : " calls") +
               " of Y = X·W (" + gemms_.front().describe() + "), then S = α/(1-p)(mask⊙X)·A and Y += S·B; tiles " +
               std::to_string(tiles_.tile_m) + " tokens x " + std::to_string(tiles_.tile_n) + " columns";
    }

  private:
    const LoraWorkload& w_;
    Tiles tiles_;
    std::vector<TokenRange> calls_;
    std::string name_;
    AdapterWeights weights_;
    std::vector<float> s_;  // S, M×rp
    std::vector<Gemm> gemms_;
};

}  // namespace

std::unique_ptr<Kernel> make_fused_calls(const LoraWorkload& w, const Tiles& t, std::vector<TokenRange> calls,
                                         std::string name) {
    return std::make_unique<Fused>(w, t, std::move(calls), std::move(name));
}

std::unique_ptr<Kernel> make_fused(const LoraWorkload& w, const Tiles& t) {
    const LoraProblem& p = w.problem();
    std::vector<TokenRange> calls;
    for (std::int64_t a = 0; a < p.adapters; ++a) calls.push_back({p.segment_begin(a), p.segment_begin(a + 1)});
    return make_fused_calls(w, t, std::move(calls), "one fused call per adapter");
}

}  // namespace memwall::lora_cpu
