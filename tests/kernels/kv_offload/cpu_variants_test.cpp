#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kernels/kv_offload/variant_case.hpp"
#include "kv_test_support.hpp"
#include "profiler/memory_hierarchy.hpp"

using namespace memwall;

namespace {

const Catalogue& catalogue() {
    static const Catalogue c = [] {
        Catalogue x;
        register_kv_offload(x);
        return x;
    }();
    return c;
}

double model_counter(const Variant& v, const Params& p, const std::string& name) {
    const auto cs = v.model(p, MemoryHierarchy{});
    const Counter* c = find_counter(cs, name);
    return c ? c->value : -1;
}

}  // namespace

// Every variant, cold and warm: poisoned, run, checked against the reference; a second run on a
// poisoned output too (timed, so evicted first); what it asked of the tier is the model's; the
// detail says how the page cache was handled.
TEST(KvOffloadCpuVariants, MatchTheReferenceAndTheModel) {
    kv_test::ScratchDir d;
    for (const std::int64_t warm : {0, 1}) {
        Params params = kv_test::small_params();
        params.set("warm", warm);
        const KvWorkload w(KvProblem::from(params), 11, d.path);
        for (const char* name : {"resident", "pread", "mmap"}) {
            SCOPED_TRACE(std::string(name) + " warm=" + std::to_string(warm));
            const Variant& v = catalogue().variant("kv_offload", name, Backend::cpu);
            auto inst = v.prepare(w, params);
            auto& kv = dynamic_cast<KvInstance&>(*inst);
            for (int run = 0; run < 2; ++run) {
                inst->poison();
                if (run == 0)
                    inst->run();
                else
                    (void)inst->run_timed();
                const Check c = inst->check();
                EXPECT_TRUE(c.ok) << c.error << " " << c.message;
            }
            EXPECT_EQ(static_cast<double>(kv.tally().bytes), model_counter(v, params, "tier.bytes"));
            EXPECT_EQ(static_cast<double>(kv.tally().requests), model_counter(v, params, "tier.requests"));
            const std::string detail = inst->detail();
            std::string expected = "cold:";
            if (std::string(name) == "resident") {
                expected = "KV in DRAM";
            } else if (warm) {
                expected = "warm:";
            } else if (w.file().in_memory()) {
                expected = "not cold:";
            }
            EXPECT_EQ(detail.rfind(expected, 0), 0u) << detail;
            // Phases of the timed run: attention always, io for the variants that read the file.
            const auto phases = inst->sampled_counters();
            EXPECT_NE(find_counter(phases, "phase.attention.seconds"), nullptr);
            EXPECT_EQ(find_counter(phases, "phase.io.seconds") != nullptr, std::string(name) != "resident");
        }
    }
    EXPECT_EQ(d.files(), 0u);
}

// The family's validator checks the scratch directory named by MEMWALL_SCRATCH.
TEST(KvOffloadCpuVariants, ValidatorChecksTheScratchDirectory) {
    const Family& f = catalogue().family("kv_offload");
    kv_test::ScratchDir d;
    ::setenv("MEMWALL_SCRATCH", d.path.c_str(), 1);
    EXPECT_NO_THROW(f.validate(kv_test::small_params()));
    ::setenv("MEMWALL_SCRATCH", (d.path / "missing").c_str(), 1);
    EXPECT_THROW(f.validate(kv_test::small_params()), EnvironmentError);
    ::unsetenv("MEMWALL_SCRATCH");
}
