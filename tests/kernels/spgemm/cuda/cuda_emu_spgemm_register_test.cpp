// The CUDA spgemm variants in the catalogue: which backends each has (cusparse GPU-only with its
// reason), emulation's default problems, the models from the workload (input_model), and the
// cuda-emu instances as the harness drives them (poison, run, check through the device case,
// counters, the fallback rows in the case's message).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/catalogue.hpp"
#include "kernels/spgemm/register.hpp"
#include "kernels/spgemm/register_cuda.hpp"

namespace memwall {
namespace {

Catalogue spgemm_catalogue() {
    Catalogue c;
    register_spgemm(c);
    return c;
}

// A point of the family at emulation size with a variant's default tunings.
Params point(const Catalogue& c, const std::string& variant, const std::string& matrix, bool sorted = false) {
    const Family& f = c.family("spgemm");
    Params p;
    for (const Axis& a : f.problem_axes) p.set(a.name, a.defaults.front());
    for (const Axis& a : c.variant("spgemm", variant, Backend::cuda_emu).tunables) p.set(a.name, a.defaults.front());
    p.set("matrix", std::string(matrix));
    p.set("scale", std::int64_t{7});
    p.set("nx", std::int64_t{5});
    p.set("sorted", std::int64_t{sorted});
    return p;
}

double counter(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : -1;
}

TEST(CudaEmuSpgemmRegister, EmulatableKernelsOnBothBackendsCusparseOnTheGpuOnly) {
    const Catalogue c = spgemm_catalogue();
    for (const char* name : {"rowwise_hash", "esc"}) {
        const Variant& emu = c.variant("spgemm", name, Backend::cuda_emu);
        EXPECT_TRUE(emu.gpu_only_reason.empty());
        EXPECT_TRUE(emu.input_model);
        EXPECT_FALSE(emu.model);
        for (const char* axis : {"scale=7", "nx=5"})
            EXPECT_NE(std::find(emu.default_axes.begin(), emu.default_axes.end(), axis), emu.default_axes.end());
        const std::string& d = c.variant("spgemm", name, Backend::cuda).description;
        EXPECT_NE(d.find("matched the reference on an NVIDIA H100"), std::string::npos);
    }
    const Family& f = c.family("spgemm");
    EXPECT_EQ(f.find("cusparse", Backend::cuda_emu), nullptr);
    const Variant& cusparse = c.variant("spgemm", "cusparse", Backend::cuda);
    EXPECT_NE(cusparse.gpu_only_reason.find("cuSPARSE"), std::string::npos);
}

TEST(CudaEmuSpgemmRegister, InstancesCheckThroughTheDeviceCaseAndCountTraffic) {
    const Catalogue c = spgemm_catalogue();
    const Family& f = c.family("spgemm");
    for (const char* matrix : {"rmat", "poisson3d27"})
        for (const char* name : {"rowwise_hash", "esc"})
            for (const bool sorted : {false, true}) {
                SCOPED_TRACE(std::string(name) + " " + matrix + (sorted ? " sorted" : ""));
                const Params p = point(c, name, matrix, sorted);
                const auto w = f.make_workload(p, 3);
                const Variant& v = c.variant("spgemm", name, Backend::cuda_emu);
                auto inst = v.prepare(*w, p);
                inst->poison();
                inst->run();
                const Check ch = inst->check();
                EXPECT_TRUE(ch.ok) << ch.message;
                const auto measured = inst->measured_counters();
                EXPECT_GT(counter(measured, "emu.global_load_bytes"), 0);
                EXPECT_GT(counter(measured, "emu.global_store_bytes"), 0);
                const auto model = v.input_model(*w, p, MemoryHierarchy{});
                const auto& stats = workload_as<SpgemmWorkload>(*w).stats();
                EXPECT_EQ(counter(model, "flops"), 2.0 * static_cast<double>(stats.products));
                EXPECT_GT(counter(model, "bytes.l1"), counter(model, "bytes.min"));
                EXPECT_EQ(counter(model, "spgemm.products"), static_cast<double>(stats.products));
                if (std::string(name) == "rowwise_hash") {
                    EXPECT_NE(inst->detail().find("fallback to global tables: 0 rows"), std::string::npos)
                        << inst->detail();
                }
            }
}

TEST(CudaEmuSpgemmRegister, AWrongResultIsCaught) {
    // The check reads C from the device: a case never run leaves it poisoned.
    const Catalogue c = spgemm_catalogue();
    const Params p = point(c, "rowwise_hash", "poisson3d27");
    const auto w = c.family("spgemm").make_workload(p, 1);
    auto inst = c.variant("spgemm", "rowwise_hash", Backend::cuda_emu).prepare(*w, p);
    inst->poison();
    EXPECT_FALSE(inst->check().ok);
}

TEST(CudaEmuSpgemmRegister, TheModelCountsTheGlobalTables) {
    const Catalogue c = spgemm_catalogue();
    Params p = point(c, "rowwise_hash", "rmat");
    const auto w = c.family("spgemm").make_workload(p, 3);
    const Variant& v = c.variant("spgemm", "rowwise_hash", Backend::cuda_emu);
    const double shared = counter(v.input_model(*w, p, MemoryHierarchy{}), "workspace.bytes");
    p.set("table_factor", 1.0);
    const double global = counter(v.input_model(*w, p, MemoryHierarchy{}), "workspace.bytes");
    EXPECT_GT(global, shared);
}

}  // namespace
}  // namespace memwall
