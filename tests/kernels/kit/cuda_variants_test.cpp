// The kit's CUDA adapter on a toy family built with memwall_add_family: the cuda-emu variant
// poisons, runs, checks and counts the traffic of the family's DeviceCase; the cuda variant is
// registered beside it; a GPU-only kernel gets no cuda-emu variant; a forward pass that waits on
// the host must say so; a device case's detail (what a library chose at run time) reaches the
// instance; an output that is not floats is checked on the device case (check_case), and a model
// from the workload (input_model) is passed through.
#include "kernels/kit/cuda_variants.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "cuda_emu/runtime_api.hpp"
#include "toy_family.hpp"

namespace memwall::kit {
namespace {

Params point(std::int64_t n, bool bf16) {
    Params p;
    p.set("n", n);
    p.set("bf16", std::int64_t{bf16});
    return p;
}

double counter(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : std::nan("");
}

TEST(CudaVariants, TheEmuInstancePoisonsRunsChecksAndCountsTraffic) {
    const Catalogue c = kit_test::toy_catalogue();
    const Variant& v = c.variant("toy", "scale", Backend::cuda_emu);
    EXPECT_NE(v.description.find("cuda-emu"), std::string::npos);
    for (bool bf16 : {false, true}) {
        const Params p = point(1000, bf16);
        const auto w = c.family("toy").make_workload(p, 1);
        auto inst = v.prepare(*w, p);
        inst->poison();
        inst->run();
        const Check ok = inst->check();
        EXPECT_TRUE(ok.ok) << ok.message;
        const double e = bf16 ? 2 : 4;
        const auto cs = inst->measured_counters();
        EXPECT_EQ(counter(cs, "emu.global_load_bytes"), 1000 * e);
        EXPECT_EQ(counter(cs, "emu.global_store_bytes"), 1000 * e);
        for (const Counter& x : cs) EXPECT_EQ(x.source, CounterSource::emu) << x.name;
        EXPECT_GT(inst->run_timed(), 0.0);
    }
}

// A device case that forwards everything to the toy's: the cases below change one part of it.
class Wrapped : public DeviceCase {
  public:
    explicit Wrapped(std::unique_ptr<DeviceCase> c) : c_(std::move(c)) {}
    void poison() override { c_->poison(); }
    void run() override { c_->run(); }
    std::size_t output_size() const override { return c_->output_size(); }
    void download(float* out) const override { c_->download(out); }

  private:
    std::unique_ptr<DeviceCase> c_;
};

// The toy scale kernel with its emu device case wrapped in `Case`.
template <class Case>
CudaKernel wrapped_kernel() {
    CudaKernel k = kit_test::scale_kernel();
    k.emu = [real = k.emu](const Workload& w, const Params& p) { return std::make_unique<Case>(real(w, p)); };
    return k;
}

// The toy family with `k` as its CUDA kernel, and the kernel's cuda-emu instance on a
// 100-element fp32 problem, poisoned; the workload it reads is kept beside it.
struct ToyEmuCase {
    explicit ToyEmuCase(const CudaKernel& k) {
        c.add_family(kit_test::toy_family());
        add_cuda_variants(c, "toy", k);
        w = c.family("toy").make_workload(p, 1);
        inst = c.variant("toy", "scale", Backend::cuda_emu).prepare(*w, p);
        inst->poison();
    }
    Catalogue c;
    const Params p = point(100, false);
    std::unique_ptr<Workload> w;
    std::unique_ptr<Instance> inst;
};

// A device case whose kernel writes nothing.
class Idle final : public Wrapped {
  public:
    using Wrapped::Wrapped;
    void run() override {}
};

TEST(CudaVariants, AnUnwrittenOutputFailsTheCheck) {
    ToyEmuCase t(wrapped_kernel<Idle>());
    t.inst->run();
    const Check ch = t.inst->check();
    EXPECT_FALSE(ch.ok);
    EXPECT_EQ(ch.message, "element 0 is wrong");
}

// A device case whose forward pass reads a size back, as spgemm's does: the host waits on a GPU.
class Waiting final : public Wrapped {
  public:
    using Wrapped::Wrapped;
    void run() override {
        Wrapped::run();
        EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    }
};

TEST(CudaVariants, AForwardPassThatWaitsOnTheHostMustSaySo) {
    for (bool declared : {false, true}) {
        CudaKernel k = wrapped_kernel<Waiting>();
        k.waits_on_host = declared;
        ToyEmuCase t(k);
        if (!declared) {
            try {
                t.inst->run();
                ADD_FAILURE() << "an undeclared wait passed";
            } catch (const std::logic_error& e) {
                EXPECT_NE(std::string(e.what()).find("toy/scale: its forward pass makes the host wait"),
                          std::string::npos)
                    << e.what();
            }
            continue;
        }
        t.inst->run();
        EXPECT_TRUE(t.inst->check().ok);
    }
}

// A device case that reports what it chose at run time.
class Detailed final : public Wrapped {
  public:
    using Wrapped::Wrapped;
    std::string detail() const override { return "algorithm 7, workspace 1 KiB"; }
};

TEST(CudaVariants, TheInstanceForwardsTheDeviceCasesDetail) {
    ToyEmuCase t(wrapped_kernel<Detailed>());
    t.inst->run();
    EXPECT_TRUE(t.inst->check().ok);
    EXPECT_EQ(t.inst->detail(), "algorithm 7, workspace 1 KiB");
    // A case that reports nothing adds nothing to the message.
    const Catalogue plain = kit_test::toy_catalogue();
    EXPECT_EQ(plain.variant("toy", "scale", Backend::cuda_emu).prepare(*t.w, t.p)->detail(), "");
}

TEST(CudaVariants, ARuleTheDeviceCaseEnforcesIsAUsageError) {
    const Catalogue c = kit_test::toy_catalogue();
    const Params p = point(0, false);
    const auto w = c.family("toy").make_workload(p, 1);
    EXPECT_THROW(c.variant("toy", "scale", Backend::cuda_emu).prepare(*w, p), UsageError);
}

TEST(CudaVariants, TheCudaVariantIsRegisteredAndAGpuOnlyKernelHasNoEmulation) {
    const Catalogue c = kit_test::toy_catalogue();
    const Variant& gpu = c.variant("toy", "scale", Backend::cuda);
    EXPECT_NE(gpu.description.find("not yet run on a GPU"), std::string::npos);
    Catalogue checked;
    checked.add_family(kit_test::toy_family());
    CudaKernel k = kit_test::scale_kernel();
    k.checked_on_gpu = gpu_runs::kH100_2026_11_27;
    add_cuda_variants(checked, "toy", k);
    EXPECT_EQ(checked.variant("toy", "scale", Backend::cuda).description,
              "out = 2 in (sm_80/sm_90 build; matched the reference on an NVIDIA H100 80GB HBM3 on 2026-11-27)");
    const Catalogue only = kit_test::toy_catalogue("tensor-core MMA");
    EXPECT_EQ(only.family("toy").find("scale", Backend::cuda_emu), nullptr);
    EXPECT_EQ(only.variant("toy", "scale", Backend::cuda).gpu_only_reason, "tensor-core MMA");
}

// A device case whose output is not a float array: it refuses download, and the check reads
// its own output (here: the floats, through the wrapped case) through check_case.
class NotFloats final : public DeviceCase {
  public:
    explicit NotFloats(std::unique_ptr<DeviceCase> c) : c_(std::move(c)) {}
    void poison() override { c_->poison(); }
    void run() override { c_->run(); }
    std::size_t output_size() const override { return 0; }
    void download(float*) const override { throw std::logic_error("download of a non-float output"); }
    std::vector<float> own_output() const {
        std::vector<float> out(c_->output_size());
        c_->download(out.data());
        return out;
    }

  private:
    std::unique_ptr<DeviceCase> c_;
};

TEST(CudaVariants, CheckCaseChecksTheDeviceCaseAndNeverDownloadsFloats) {
    CudaKernel k = wrapped_kernel<NotFloats>();
    k.check_case = [check = k.check](const Workload& w, const DeviceCase& d) {
        return check(w, dynamic_cast<const NotFloats&>(d).own_output().data());
    };
    k.check = nullptr;
    ToyEmuCase t(k);
    EXPECT_FALSE(t.inst->check().ok);  // poisoned: the check reads the device, not a stale copy
    t.inst->run();
    EXPECT_TRUE(t.inst->check().ok);
    EXPECT_GT(counter(t.inst->measured_counters(), "emu.global_store_bytes"), 0);
}

TEST(CudaVariants, InputModelIsPassedThroughAndAKernelNeedsOneCheckAndOneModel) {
    CudaKernel k = kit_test::scale_kernel();
    k.model = nullptr;
    k.input_model = [](const Workload&, const Params&, const MemoryHierarchy&) {
        return std::vector<Counter>{{"flops", 42, "FLOP", CounterSource::model}};
    };
    Catalogue c;
    c.add_family(kit_test::toy_family());
    add_cuda_variants(c, "toy", k);
    for (const Backend b : {Backend::cuda_emu, Backend::cuda}) {
        const Variant& v = c.variant("toy", "scale", b);
        EXPECT_FALSE(v.model);
        const auto w = c.family("toy").make_workload(point(10, false), 1);
        EXPECT_EQ(counter(v.input_model(*w, point(10, false), MemoryHierarchy{}), "flops"), 42);
    }
    Catalogue d;
    d.add_family(kit_test::toy_family());
    CudaKernel both = kit_test::scale_kernel();
    both.input_model = k.input_model;
    EXPECT_THROW(add_cuda_variants(d, "toy", both), std::logic_error);
    CudaKernel no_check = kit_test::scale_kernel();
    no_check.check = nullptr;
    EXPECT_THROW(add_cuda_variants(d, "toy", no_check), std::logic_error);
    CudaKernel two_checks = kit_test::scale_kernel();
    two_checks.check_case = [](const Workload&, const DeviceCase&) { return Check{}; };
    EXPECT_THROW(add_cuda_variants(d, "toy", two_checks), std::logic_error);
}

}  // namespace
}  // namespace memwall::kit
