// multi_adapter: the fused kernel over the whole batch of several adapters' tokens at once (as
// S-LoRA and Punica batch them): every token block of the down- and up-projection looks up its
// adapter, and one base GEMM covers every token, so W is streamed once rather than once per
// adapter. With one adapter it is fused.
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

std::unique_ptr<Kernel> make_multi_adapter(const LoraWorkload& w, const Tiles& t) {
    return make_fused_calls(w, t, {{0, w.problem().m}}, "one batched call, each token block looking up its adapter");
}

}  // namespace memwall::lora_cpu
