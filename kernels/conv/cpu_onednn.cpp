// onednn: the peer, oneDNN's convolution_forward (forward inference, convolution_auto: oneDNN
// picks the algorithm, the kernel and its ISA, and the layouts). memwall's tensors are NCHW and
// KCRS, as every other variant's: when oneDNN prefers blocked activations, each run converts the
// input and the output (timed, as a framework holding NCHW tensors pays it); the filter is
// converted once, as inference does with weights. Scratchpad and conversions are workspace.
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <vector>

#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/kit/onednn_isa.hpp"

namespace memwall::conv_cpu {

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

struct Descs {
    memory::desc src, weights, dst;
};

Descs user_descs(const ConvProblem& p) {
    return {memory::desc({p.n, p.c, p.h, p.w}, dt::f32, tag::nchw),
            memory::desc({p.k, p.c, p.r, p.s}, dt::f32, tag::oihw),
            memory::desc({p.n, p.k, p.p(), p.q()}, dt::f32, tag::nchw)};
}

dnnl::convolution_forward::primitive_desc primitive(const ConvProblem& p, const dnnl::engine& engine) {
    kit::limit_onednn_to_active_isa();
    const Descs user = user_descs(p);
    auto any = [](const memory::desc& d) { return memory::desc(d.dims(), dt::f32, tag::any); };
    const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_auto,
                                            any(user.src), any(user.weights), any(user.dst), {p.stride, p.stride},
                                            {p.pad, p.pad}, {p.pad, p.pad});
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return dnnl::convolution_forward::primitive_desc(d, attr, engine);
}

// "plain" for the user's layout, else oneDNN's tag notation: dimensions from the outermost,
// upper-case where blocked, then the inner blocks ("nhwc", "nChw16c", "OIhw16i16o").
std::string layout(const memory::desc& chosen, const memory::desc& user, const char* dims) {
    if (chosen == user) return "plain";
    const auto& b = chosen.data.format_desc.blocking;
    const int ndims = chosen.data.ndims;
    std::vector<int> order(static_cast<std::size_t>(ndims));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return b.strides[x] > b.strides[y]; });
    std::string out;
    for (int d : order) {
        bool blocked = false;
        for (int i = 0; i < b.inner_nblks; ++i) blocked = blocked || b.inner_idxs[i] == d;
        out += blocked ? static_cast<char>(std::toupper(dims[d])) : dims[d];
    }
    for (int i = 0; i < b.inner_nblks; ++i) out += std::to_string(b.inner_blks[i]) + dims[b.inner_idxs[i]];
    return out;
}

OnednnPlan plan_of(const ConvProblem& p, const dnnl::convolution_forward::primitive_desc& pd) {
    const Descs user = user_descs(p);
    OnednnPlan plan;
    plan.implementation = pd.impl_info_str();
    plan.src_layout = layout(pd.src_desc(), user.src, "nchw");
    plan.weights_layout = layout(pd.weights_desc(), user.weights, "oihw");
    plan.dst_layout = layout(pd.dst_desc(), user.dst, "nchw");
    plan.src_reordered = pd.src_desc() != user.src;
    plan.dst_reordered = pd.dst_desc() != user.dst;
    plan.scratchpad_bytes = static_cast<double>(pd.scratchpad_desc().get_size());
    plan.reorder_bytes = (plan.src_reordered ? static_cast<double>(pd.src_desc().get_size()) : 0.0) +
                         (plan.dst_reordered ? static_cast<double>(pd.dst_desc().get_size()) : 0.0);
    plan.weights_bytes = pd.weights_desc() != user.weights ? static_cast<double>(pd.weights_desc().get_size()) : 0.0;
    return plan;
}

}  // namespace

std::string OnednnPlan::describe() const {
    const dnnl_version_t* v = dnnl_version();
    std::string s = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                    std::to_string(v->patch) + " " + implementation + ", src " + src_layout + ", weights " +
                    weights_layout + ", dst " + dst_layout;
    if (src_reordered || dst_reordered)
        s += std::string(" (") + (src_reordered ? "src" : "") + (src_reordered && dst_reordered ? " and " : "") +
             (dst_reordered ? "dst" : "") + " converted from/to NCHW in each run)";
    return s;
}

OnednnPlan onednn_plan(const ConvProblem& p) {
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return plan_of(p, primitive(p, engine));
}

struct OnednnConv::State {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward conv;
    OnednnPlan plan;
    memory user_src, src, weights, dst, user_dst, scratchpad;
    dnnl::reorder to_src, from_dst;
};

OnednnConv::OnednnConv(const ConvProblem& p, const float* input, const float* filter)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.pd = primitive(p, s.engine);
    s.plan = plan_of(p, s.pd);
    refuse_oversized_workspace("onednn", s.plan.scratchpad_bytes + s.plan.reorder_bytes + s.plan.weights_bytes);
    s.conv = dnnl::convolution_forward(s.pd);
    const Descs user = user_descs(p);
    // oneDNN reads the workload's input in place when it takes NCHW (it does not write it).
    s.user_src = memory(user.src, s.engine, const_cast<float*>(input));
    s.src = s.plan.src_reordered ? memory(s.pd.src_desc(), s.engine) : s.user_src;
    if (s.plan.src_reordered) s.to_src = dnnl::reorder(s.user_src, s.src);
    memory user_weights(user.weights, s.engine, const_cast<float*>(filter));
    s.weights = memory(s.pd.weights_desc(), s.engine);
    dnnl::reorder(user_weights, s.weights).execute(s.stream, user_weights, s.weights);
    // The output buffer is the run's: its handle is set in run().
    s.user_dst = memory(user.dst, s.engine, DNNL_MEMORY_NONE);
    s.dst = s.plan.dst_reordered ? memory(s.pd.dst_desc(), s.engine) : s.user_dst;
    if (s.plan.dst_reordered) s.from_dst = dnnl::reorder(s.dst, s.user_dst);
    s.scratchpad = memory(s.pd.scratchpad_desc(), s.engine);
    s.stream.wait();
}

OnednnConv::~OnednnConv() = default;

void OnednnConv::run(float* out) {
    State& s = *state_;
    s.user_dst.set_data_handle(out);
    if (s.plan.src_reordered) s.to_src.execute(s.stream, s.user_src, s.src);
    s.conv.execute(s.stream, {{DNNL_ARG_SRC, s.src},
                              {DNNL_ARG_WEIGHTS, s.weights},
                              {DNNL_ARG_DST, s.dst},
                              {DNNL_ARG_SCRATCHPAD, s.scratchpad}});
    if (s.plan.dst_reordered) s.from_dst.execute(s.stream, s.dst, s.user_dst);
    s.stream.wait();
}

const OnednnPlan& OnednnConv::plan() const { return state_->plan; }

}  // namespace memwall::conv_cpu
