// multi_adapter: the fused kernel over the batch of several adapters' tokens at once (as S-LoRA
// and Punica batch them): every token block of the down- and up-projection looks up its adapter,
// and one base GEMM covers the tokens of `group` adapters, so W is streamed once per group rather
// than once per adapter. With one adapter, or a group of one, it is fused.
#include <algorithm>
#include <string>

#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

std::unique_ptr<Kernel> make_multi_adapter(const LoraWorkload& w, const Tiles& t, std::int64_t group) {
    const LoraProblem& p = w.problem();
    std::vector<TokenRange> calls;
    for (std::int64_t a = 0; a < p.adapters; a += group)
        calls.push_back({p.segment_begin(a), p.segment_begin(std::min(p.adapters, a + group))});
    return make_fused_calls(w, t, std::move(calls),
                            "batched calls of " + std::to_string(group) + (group == 1 ? " adapter" : " adapters") +
                                ", each token block looking up its adapter");
}

}  // namespace memwall::lora_cpu
