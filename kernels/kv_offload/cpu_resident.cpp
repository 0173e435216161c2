// resident: the whole KV cache in DRAM, the upper bound of every tier.
#include <vector>

#include "kernels/kv_offload/cpu_kernels.hpp"

namespace memwall::kv_cpu {

namespace {

class Resident final : public Kernel {
  public:
    explicit Resident(const KvWorkload& w) : w_(w), pages_(static_cast<std::size_t>(w.problem().selected())) {}

    void run(float* out, kit::PhaseTimes& phases) override {
        const KvProblem& p = w_.problem();
        tally_ = {};
        for (std::int64_t s = 0; s < p.steps; ++s) {
            const auto& sel = w_.selections()[static_cast<std::size_t>(s)];
            for (std::size_t i = 0; i < sel.size(); ++i)
                pages_[i] = w_.kv() + static_cast<std::size_t>(sel[i]) * p.page_floats();
            kv_attend_step(p, w_, s, pages_.data(), out + s * p.heads * p.head_dim);
            tally_.bytes += sel.size() * p.page_bytes();
        }
        phases.lap("attention");
    }
    bool reads_file() const override { return false; }
    std::uint64_t evict() override { return 0; }

  private:
    const KvWorkload& w_;
    std::vector<const float*> pages_;
};

}  // namespace

std::unique_ptr<Kernel> make_resident(const KvWorkload& w) { return std::make_unique<Resident>(w); }

}  // namespace memwall::kv_cpu
