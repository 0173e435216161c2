// The GEMMs of the lora CPU kernels: OpenBLAS's sgemm for fp32, oneDNN's matmul for bf16, and
// where oneDNN has no bf16 matmul (Debian's 2.6 without AVX-512, or held to AVX2 by the active
// ISA) the bf16 operands widened to fp32 for sgemm and the product rounded back to bf16.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "kernels/kit/onednn_isa.hpp"
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
    // bf16 without oneDNN's matmul: B widened once (as weights are), A and C widened per run.
    bool widened = false;
    std::vector<float> b32, a32, c32;
    // bf16: the primitive, B in its layout, and the activations' memory objects (handles set per run).
    dnnl::engine engine;
    dnnl::stream stream;
    dnnl::matmul matmul;
    // B in oneDNN's layout, on huge pages as the workload's arrays are: in oneDNN's own 4 KiB pages
    // the GEMM's time moved with where each instance's copy landed. Declared before `weights`,
    // which points into it, so it outlives that memory object.
    ByteBuffer packed{kit::PlacedAllocator<std::byte>(lora_slot::kW)};
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
        throw std::runtime_error(
            "oneDNN has no bf16 matmul on this CPU (it needs AVX-512); bf16 runs on CPUs that have it");
    }
}

void widen(const std::uint16_t* in, float* out, std::int64_t count) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) out[i] = load_elem(in, i);
}

void narrow(const float* in, std::uint16_t* out, std::int64_t count) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) store_elem(out, i, in[i]);
}

void sgemm(std::int64_t rows, std::int64_t k, std::int64_t n, const float* a, const float* b, float* c) {
    kit::openblas::sgemm()(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(rows),
                           static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, a, static_cast<blasint>(k), b,
                           static_cast<blasint>(n), 0.0f, c, static_cast<blasint>(n));
}

}  // namespace

bool Gemm::bf16_available() {
    static const bool available = [] {
        kit::limit_onednn_to_active_isa();
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
    State& s = *state_;
    s.widened = dtype == LoraDtype::bf16 && !bf16_available();
    if (dtype == LoraDtype::fp32 || s.widened) {
        (void)kit::openblas::sgemm();  // loads OpenBLAS now: a failure is the case's, not the run's
        if (s.widened) {
            s.b32.resize(static_cast<std::size_t>(k * n));
            s.a32.resize(static_cast<std::size_t>(rows * k));
            s.c32.resize(static_cast<std::size_t>(rows * n));
            widen(static_cast<const std::uint16_t*>(b), s.b32.data(), k * n);
        }
        return;
    }
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
        sgemm(s.rows, s.k, s.n, static_cast<const float*>(a), static_cast<const float*>(s.b), static_cast<float*>(c));
        return;
    }
    if (s.widened) {
        widen(static_cast<const std::uint16_t*>(a), s.a32.data(), s.rows * s.k);
        sgemm(s.rows, s.k, s.n, s.a32.data(), s.b32.data(), s.c32.data());
        narrow(s.c32.data(), static_cast<std::uint16_t*>(c), s.rows * s.n);
        return;
    }
    s.a.set_data_handle(const_cast<void*>(a));
    s.c.set_data_handle(c);
    s.matmul.execute(s.stream, {{DNNL_ARG_SRC, s.a}, {DNNL_ARG_WEIGHTS, s.weights}, {DNNL_ARG_DST, s.c}});
    s.stream.wait();
}

std::string Gemm::describe() const {
    if (state_->widened) return "OpenBLAS sgemm on bf16 widened to fp32 (oneDNN has no bf16 matmul on this ISA)";
    return state_->dtype == LoraDtype::fp32 ? "OpenBLAS sgemm" : "oneDNN matmul " + state_->implementation;
}

double Gemm::weights_bytes() const {
    const State& s = *state_;
    if (s.widened) return 4.0 * static_cast<double>(s.b32.size() + s.a32.size() + s.c32.size());
    return s.dtype == LoraDtype::fp32 ? 0.0 : static_cast<double>(s.weights.get_desc().get_size());
}

}  // namespace memwall::lora_cpu
