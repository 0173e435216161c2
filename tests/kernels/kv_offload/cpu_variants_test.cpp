#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kernels/kv_offload/variant_case.hpp"
#include "kv_test_support.hpp"
#include "metrics/memory_hierarchy.hpp"

using namespace memwall;

namespace {

using kv_test::catalogue;

// `name` from the variant's model (from the workload's selections for cached), -1 if absent.
double model_counter(const Variant& v, const Workload& w, const Params& p, const std::string& name) {
    const auto cs = v.input_model ? v.input_model(w, p, MemoryHierarchy{}) : v.model(p, MemoryHierarchy{});
    const Counter* c = find_counter(cs, name);
    return c ? c->value : -1;
}

const std::vector<std::string> all_variants = {"resident", "pread", "mmap", "uring", "cached"};

// The problem and the variant's tunables at their defaults.
Params point(const std::string& variant, Params problem) {
    for (const Axis& a : catalogue().variant("kv_offload", variant, Backend::cpu).tunables)
        problem.set(a.name, a.defaults.front());
    return problem;
}

// Runs the instance twice on poisoned outputs (the second timed, so evicted first when cold)
// and checks both.
void run_and_check(Instance& inst) {
    for (int run = 0; run < 2; ++run) {
        inst.poison();
        if (run == 0)
            inst.run();
        else
            (void)inst.run_timed();
        const Check c = inst.check();
        EXPECT_TRUE(c.ok) << c.error << " " << c.message;
    }
}

}  // namespace

// Another user renames the KV file away and links its name to a file of zeros: every variant
// still reads the pages memwall wrote (through the file's descriptor, never the name) and passes.
TEST(KvOffloadCpuVariants, ReadTheirFileWhateverItsNameBecomes) {
    kv_test::ScratchDir d;
    const Params params = kv_test::small_params();
    const KvWorkload w(KvProblem::from(params), 11, d.path);
    std::filesystem::rename(w.file().path(), d.path / "moved");
    std::ofstream(d.path / "zeros", std::ios::binary) << std::string(w.file().size(), '\0');
    std::filesystem::create_symlink(d.path / "zeros", w.file().path());
    for (const std::string& name : all_variants) {
        SCOPED_TRACE(name);
        auto inst = catalogue().variant("kv_offload", name, Backend::cpu).prepare(w, point(name, params));
        run_and_check(*inst);
    }
}

// Every variant, cold and warm: poisoned, run, checked against the reference; a second run on a
// poisoned output too (timed, so evicted first); what it asked of the tier is the model's; the
// detail says how the page cache was handled.
TEST(KvOffloadCpuVariants, MatchTheReferenceAndTheModel) {
    kv_test::ScratchDir d;
    for (const std::int64_t warm : {0, 1}) {
        Params params = kv_test::small_params();
        params.set("warm", warm);
        const KvWorkload w(KvProblem::from(params), 11, d.path);
        for (const std::string& name : all_variants) {
            SCOPED_TRACE(name + " warm=" + std::to_string(warm));
            const Variant& v = catalogue().variant("kv_offload", name, Backend::cpu);
            const Params pt = point(name, params);
            auto inst = v.prepare(w, pt);
            auto& kv = dynamic_cast<KvInstance&>(*inst);
            run_and_check(*inst);
            EXPECT_EQ(static_cast<double>(kv.tally().bytes), model_counter(v, w, pt, "tier.bytes"));
            EXPECT_EQ(static_cast<double>(kv.tally().requests), model_counter(v, w, pt, "tier.requests"));
            if (name == "cached") {
                EXPECT_EQ(static_cast<double>(kv.tally().hits), model_counter(v, w, pt, "cache.hits"));
            }
            const std::string detail = inst->detail();
            std::string expected = "cold:";
            if (name == "resident") {
                expected = "KV in DRAM";
            } else if (warm) {
                expected = "warm:";
            } else if (w.file().in_memory()) {
                expected = "not cold:";
            }
            EXPECT_EQ(detail.rfind(expected, 0), 0u) << detail;
            if (name == "uring" || name == "cached") {  // 512-byte pages: no O_DIRECT, and said why
                EXPECT_NE(detail.find("buffered (pages of 512 B are not whole 4 KiB blocks"), std::string::npos)
                    << detail;
            }
            // Phases of the timed run: attention always, io for the variants that read the file.
            // Phases of the timed run: io then attention for pread and mmap, attention alone for
            // resident, and both at once for the io_uring readers, which attend as pages arrive.
            const auto phases = inst->sampled_counters();
            const bool overlapped = name == "uring" || name == "cached";
            EXPECT_EQ(find_counter(phases, "phase.overlapped.seconds") != nullptr, overlapped);
            EXPECT_EQ(find_counter(phases, "phase.attention.seconds") != nullptr, !overlapped);
            EXPECT_EQ(find_counter(phases, "phase.io.seconds") != nullptr, name == "pread" || name == "mmap");
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

// Pages of whole 4 KiB blocks: uring and cached read them with O_DIRECT (where the file system
// takes it) and say so, with no eviction needed; a larger cache hits at least as often as the
// model says and never reads more.
TEST(KvOffloadCpuVariants, WholeBlockPagesAreReadWithODirect) {
    kv_test::ScratchDir d;
    Params params = kv_test::small_params();
    params.set("page_tokens", std::int64_t{16});
    params.set("head_dim", std::int64_t{16});  // 2 x 2 heads x 16 tokens x 16 floats: 4 KiB pages
    params.set("context", std::int64_t{512});
    params.set("select", 0.25);
    params.set("steps", std::int64_t{6});
    const KvWorkload w(KvProblem::from(params), 5, d.path);
    ASSERT_EQ(w.problem().page_bytes(), 4096u);
    for (const std::string name : {"uring", "cached"})
        for (const double cache : {1.0, 2.5}) {
            SCOPED_TRACE(name + " cache " + std::to_string(cache));
            const Variant& v = catalogue().variant("kv_offload", name, Backend::cpu);
            Params pt = point(name, params);
            pt.set("queue_depth", std::int64_t{3});
            if (name == "cached") pt.set("cache", cache);
            auto inst = v.prepare(w, pt);
            run_and_check(*inst);
            const auto& kv = dynamic_cast<const KvInstance&>(*inst);
            EXPECT_EQ(static_cast<double>(kv.tally().bytes), model_counter(v, w, pt, "tier.bytes"));
            EXPECT_EQ(static_cast<double>(kv.tally().requests), model_counter(v, w, pt, "tier.requests"));
            if (name == "cached") {
                EXPECT_EQ(static_cast<double>(kv.tally().hits), model_counter(v, w, pt, "cache.hits"));
            }
            const std::string detail = inst->detail();
            if (w.file().o_direct()) {
                EXPECT_EQ(detail.rfind("O_DIRECT:", 0), 0u) << detail;
            }
            EXPECT_NE(detail.find("queue depth 3"), std::string::npos) << detail;
        }
}
