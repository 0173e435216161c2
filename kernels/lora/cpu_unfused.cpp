// unfused: LoRA as PyTorch's peft runs it, in separate passes, each a library call or one sweep:
// Y = X·W; X' = dropout(X) (written out); S = X'·A; T = S·B; Y += α·T. X is read twice and
// written once more (X'), and Y's size goes through memory three more times (T written, T and Y
// read by the add, Y written) besides the base GEMM's own: the traffic LoRAFusion removes.
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

namespace {

class Unfused final : public Kernel {
  public:
    explicit Unfused(const LoraWorkload& w)
        : w_(w),
          base_(w.problem().dtype, w.problem().m, w.problem().k, w.problem().n, w.w_data()),
          dropped_(bytes(w.problem().m * w.problem().k), kit::PlacedAllocator<std::byte>(lora_slot::kWorkspace)),
          s_(bytes(w.problem().m * w.problem().r)),
          t_(bytes(w.problem().m * w.problem().n), kit::PlacedAllocator<std::byte>(lora_slot::kSecondWorkspace)) {
        const LoraProblem& p = w.problem();
        for (std::int64_t a = 0; a < p.adapters; ++a) {
            const std::int64_t rows = p.segment_begin(a + 1) - p.segment_begin(a);
            down_.emplace_back(p.dtype, rows, p.k, p.r, w.a_data(a));
            up_.emplace_back(p.dtype, rows, p.r, p.n, w.b_data(a));
        }
    }

    void run(void* y, kit::PhaseTimes& phases) override {
        const LoraProblem& p = w_.problem();
        const std::size_t e = p.element_bytes();
        base_.run(w_.x_data(), y);
        phases.lap("gemm");
        dropout(w_, 0, p.m, dropped_.data());
        phases.lap("dropout");
        // One adapter's tokens at a time, as a framework applies each adapter to its requests.
        for (std::int64_t a = 0; a < p.adapters; ++a) {
            const std::int64_t t0 = p.segment_begin(a);
            down_[static_cast<std::size_t>(a)].run(element_offset(dropped_.data(), t0 * p.k, e),
                                                   element_offset(s_.data(), t0 * p.r, e));
            phases.lap("down");
            up_[static_cast<std::size_t>(a)].run(element_offset(s_.data(), t0 * p.r, e),
                                                 element_offset(t_.data(), t0 * p.n, e));
            phases.lap("up");
        }
        scaled_add(p.dtype, y, t_.data(), static_cast<float>(p.alpha), p.m * p.n);
        phases.lap("add");
    }

    double workspace_bytes() const override {
        double packed = base_.weights_bytes();
        for (const Gemm& g : down_) packed += g.weights_bytes();
        for (const Gemm& g : up_) packed += g.weights_bytes();
        return static_cast<double>(dropped_.size() + s_.size() + t_.size()) + packed;
    }

    std::string detail() const override {
        return "separate passes: Y = X·W, X' = dropout(X), S = X'·A, T = S·B, Y += α·T (GEMMs: " + base_.describe() +
               "; down-projection " + down_.front().describe() + ")";
    }

  private:
    std::size_t bytes(std::int64_t elements) const {
        return static_cast<std::size_t>(elements) * w_.problem().element_bytes();
    }

    const LoraWorkload& w_;
    Gemm base_;
    std::vector<Gemm> down_, up_;
    ByteBuffer dropped_;  // X' (M×K)
    ByteBuffer s_;        // S (M×r)
    ByteBuffer t_;        // T (M×N)
};

}  // namespace

std::unique_ptr<Kernel> make_unfused(const LoraWorkload& w) { return std::make_unique<Unfused>(w); }

}  // namespace memwall::lora_cpu
