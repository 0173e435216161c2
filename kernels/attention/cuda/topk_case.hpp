// The host side of topk_sparse's CUDA kernels (topk_sparse.cuh): its sizes, tuning and inputs
// (the label cache and channels calibrated on the host, decode.hpp), and its device case, built
// for cuda-emu and for GPUs from topk_sparse.cu. C++17 and free of CUDA headers, as
// device_case.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/attention/cuda/device_case.hpp"

namespace memwall::attention_cuda {

inline constexpr int kMaxSelectThreads = 1024;

struct TopkTuning {
    int channels = 16;         // r, label channels per head
    int tokens = 1;            // k, keys attended per head
    int splits = 1;            // blocks per head attending to slices of the k keys
    int select_threads = 256;  // threads of a head's scoring and selection block
};

// Host copies (fp32): Q, K, V as AttentionWorkload holds them, the label cache
// ([heads][r][seq_k]) and the channels ([heads][r]); `detail` is the case's message.
struct TopkInputs {
    const float* q = nullptr;
    const float* k = nullptr;
    const float* v = nullptr;
    const float* label = nullptr;
    std::vector<std::int32_t> channels;
    std::string detail;
};

// Throws std::invalid_argument naming the first rule broken.
inline void validate_topk(const Shape& s, const TopkTuning& t) {
    auto require = [](bool ok, const char* rule) {
        if (!ok) throw std::invalid_argument(std::string("cuda attention/topk_sparse: ") + rule);
    };
    require(s.seq_q == 1, "seq_q must be 1 (decode)");
    require(s.dtype == Dtype::fp32, "dtype must be fp32");
    require(s.heads >= 1 && s.heads <= kMaxGridYz, "batch * heads must be 1 to 65535");
    require(t.channels >= 1 && t.channels <= s.head_dim, "label_channels must be 1 to head_dim");
    require(t.tokens >= 1 && t.tokens <= s.seq_k, "k must be 1 to seq_k");
    require(t.splits >= 1 && t.splits <= kMaxGridYz, "num_splits must be 1 to 65535");
    require(t.select_threads >= 32 && t.select_threads <= kMaxSelectThreads &&
                (t.select_threads & (t.select_threads - 1)) == 0,
            "select_threads must be a power of two from 32 to 1024");
}

// topk_sparse's device case. Output: O ([heads][head_dim]) then the approximate scores
// ([heads][seq_k]), as the CPU variant's (topk_output_floats); the check reads the channels and
// sizes it ran with from it.
class TopkDeviceCase : public DeviceCase {
  public:
    TopkDeviceCase(const TopkTuning& t, std::vector<std::int32_t> channels)
        : tuning_(t), channels_(std::move(channels)) {}
    const TopkTuning& tuning() const { return tuning_; }
    const std::vector<std::int32_t>& channels() const { return channels_; }

  private:
    TopkTuning tuning_;
    std::vector<std::int32_t> channels_;
};

namespace cuda_emu {
std::unique_ptr<TopkDeviceCase> make_topk_case(const Shape& s, const TopkTuning& t, const TopkInputs& in,
                                               const emu::EmulationOptions& options = {});
}  // namespace cuda_emu
namespace cuda_gpu {
std::unique_ptr<TopkDeviceCase> make_topk_case(const Shape& s, const TopkTuning& t, const TopkInputs& in);
}  // namespace cuda_gpu

}  // namespace memwall::attention_cuda
