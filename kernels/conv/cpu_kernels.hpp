// The conv family's CPU kernels. Each writes every element of out (N*K*P*Q floats, NCHW). The
// tiled ones are built once per ISA (kit/kernel_isa.hpp): call the active ISA's, with the
// filter packed and the blocking validated for it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "kernels/conv/conv.hpp"
#include "kernels/conv/blocking.hpp"

namespace memwall::conv_cpu {

// direct: register tiles over the NCHW input (cpu_direct.cpp). `packed`: pack_filter's layout.
template <Isa isa>
void conv_direct(const ConvProblem& p, const Blocking& b, const float* input, const float* packed, float* out);

// im2win: the window-order transform into `win` (im2win_floats), then register tiles over it.
std::size_t im2win_floats(const ConvProblem& p);
void im2win_transform(const ConvProblem& p, const float* input, float* win);
template <Isa isa>
void conv_im2win(const ConvProblem& p, const Blocking& b, const float* input, const float* packed, float* out,
                 float* win);

// im2col_gemm: the im2col buffer `col` ([N][C*R*S][P*Q], im2col_floats), then one OpenBLAS
// sgemm per image: out[n] (K x PQ) = filter (K x CRS) * col[n] (CRS x PQ).
std::size_t im2col_floats(const ConvProblem& p);
void im2col_transform(const ConvProblem& p, const float* input, float* col);
void conv_im2col_gemm(const ConvProblem& p, const float* input, const float* filter, float* out, float* col);

// onednn: oneDNN's convolution_forward, algorithm and layouts of its choosing (cpu_onednn.cpp).
struct OnednnPlan {
    std::string implementation;  // oneDNN's name for the kernel it picked, e.g. "brg:avx512_core"
    std::string src_layout, weights_layout, dst_layout;  // as oneDNN chose them
    bool src_reordered = false, dst_reordered = false;   // NCHW is converted in each run
    double scratchpad_bytes = 0;
    double reorder_bytes = 0;  // the blocked copies of src and dst, per run
    double weights_bytes = 0;  // the filter in oneDNN's layout, reordered once
    std::string describe() const;
};
OnednnPlan onednn_plan(const ConvProblem& p);
// A prepared oneDNN convolution over the workload's input and filter. Throws UsageError, before
// allocating, when its workspace would not fit in the memory available.
class OnednnConv {
  public:
    OnednnConv(const ConvProblem& p, const float* input, const float* filter);
    ~OnednnConv();
    void run(float* out);
    const OnednnPlan& plan() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace memwall::conv_cpu
