// The GEMMs of the lora CPU kernels: OpenBLAS's sgemm for fp32, oneDNN's matmul for bf16.
#include <stdexcept>

#include <oneapi/dnnl/dnnl.hpp>

#include "kernels/kit/openblas.hpp"
#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

using dnnl::memory;
using dt = memory::data_type;
using tag = memory::format_tag;

struct Gemm::State {
    LoraDtype dtype;
    std::int64_t rows, k, n;
    const void* b;
    // bf16: the primitive, B in its layout, and the activations' memory objects (handles set per run).
    dnnl::engine engine;
    dnnl::stream stream;
    dnnl::matmul matmul;
    // B in oneDNN's layout, on huge pages as the workload's arrays are: in oneDNN's own 4 KiB pages
    // the GEMM's time moved with where each instance's copy landed. Declared before `weights`,
    // which points into it, so it outlives that memory object.
    ByteBuffer packed{kit::PlacedAllocator<std::byte>(lora_slot::w)};
    memory weights, a, c;
    std::string implementation;
};

namespace {

dnnl::matmul::primitive_desc bf16_matmul(const dnnl::engine& engine, const memory::desc& a, const memory::desc& b,
                                         const memory::desc& c) {
    try {
        return {dnnl::matmul::desc(a, b, c), engine};
    } catch (const dnnl::error& e) {
        if (e.status != dnnl_unimplemented) throw;
        throw std::runtime_error("oneDNN has no bf16 matmul on this CPU (it needs AVX-512); bf16 runs on CPUs that have it");
    }
}

}  // namespace

bool Gemm::bf16_available() {
    static const bool available = [] {
        try {
            const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
            const memory::desc md({2, 2}, dt::bf16, tag::ab);
            (void)bf16_matmul(engine, md, md, md);
            return true;
        } catch (const std::runtime_error&) {
            return false;
        }
    }();
    return available;
}

Gemm::Gemm(LoraDtype dtype, std::int64_t rows, std::int64_t k, std::int64_t n, const void* b)
    : state_(new State{dtype, rows, k, n, b}) {
    if (dtype == LoraDtype::fp32) {
        (void)kit::openblas::sgemm();  // loads OpenBLAS now: a failure is the case's, not the run's
        return;
    }
    State& s = *state_;
    s.engine = dnnl::engine(dnnl::engine::kind::cpu, 0);
    s.stream = dnnl::stream(s.engine);
    const memory::desc a_md({rows, k}, dt::bf16, tag::ab), c_md({rows, n}, dt::bf16, tag::ab);
    const memory::desc b_user({k, n}, dt::bf16, tag::ab);
    const dnnl::matmul::primitive_desc pd = bf16_matmul(s.engine, a_md, memory::desc({k, n}, dt::bf16, tag::any), c_md);
    s.implementation = pd.impl_info_str();
    memory user(b_user, s.engine, const_cast<void*>(b));
    s.packed.resize(pd.weights_desc().get_size());
    s.weights = memory(pd.weights_desc(), s.engine, s.packed.data());
    dnnl::reorder(user, s.weights).execute(s.stream, user, s.weights);
    s.stream.wait();
    s.matmul = dnnl::matmul(pd);
    s.a = memory(a_md, s.engine, DNNL_MEMORY_NONE);
    s.c = memory(c_md, s.engine, DNNL_MEMORY_NONE);
}

Gemm::~Gemm() = default;
Gemm::Gemm(Gemm&&) noexcept = default;

void Gemm::run(const void* a, void* c) const {
    State& s = *state_;
    if (s.dtype == LoraDtype::fp32) {
        kit::openblas::sgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(s.rows),
                               static_cast<blasint>(s.n), static_cast<blasint>(s.k), 1.0f, static_cast<const float*>(a),
                               static_cast<blasint>(s.k), static_cast<const float*>(s.b), static_cast<blasint>(s.n),
                               0.0f, static_cast<float*>(c), static_cast<blasint>(s.n));
        return;
    }
    s.a.set_data_handle(const_cast<void*>(a));
    s.c.set_data_handle(c);
    s.matmul.execute(s.stream, {{DNNL_ARG_SRC, s.a}, {DNNL_ARG_WEIGHTS, s.weights}, {DNNL_ARG_DST, s.c}});
    s.stream.wait();
}

std::string Gemm::describe() const {
    return state_->dtype == LoraDtype::fp32 ? "OpenBLAS sgemm" : "oneDNN matmul " + state_->implementation;
}

double Gemm::weights_bytes() const {
    return state_->dtype == LoraDtype::fp32 ? 0.0 : static_cast<double>(state_->weights.get_desc().get_size());
}

}  // namespace memwall::lora_cpu
