// base: the frozen GEMM alone, Y = X·W, the floor every LoRA variant is compared with.
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

namespace {

class Base final : public Kernel {
  public:
    explicit Base(const LoraWorkload& w)
        : w_(w), gemm_(w.problem().dtype, w.problem().m, w.problem().k, w.problem().n, w.w_data()) {}
    void run(void* y, kit::PhaseTimes& phases) override {
        gemm_.run(w_.x_data(), y);
        phases.lap("gemm");
    }
    double workspace_bytes() const override { return gemm_.weights_bytes(); }
    std::string detail() const override { return "Y = X·W alone (" + gemm_.describe() + ")"; }

  private:
    const LoraWorkload& w_;
    Gemm gemm_;
};

}  // namespace

std::unique_ptr<Kernel> make_base(const LoraWorkload& w) { return std::make_unique<Base>(w); }

}  // namespace memwall::lora_cpu
