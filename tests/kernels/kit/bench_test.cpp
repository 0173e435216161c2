// The benchmark builder (kit/bench.hpp) as families: expressions of the axes; inputs from the
// seed, never zero or in their range; a CPU benchmark with a reference passes, a wrong one fails,
// one without a reference is unchecked; benchmarks of one family share its reference; a mistyped
// array and malformed declarations are refused; the CUDA path on cuda-emu (bench_probe.cu): typed
// outputs checked, traffic counted, a tunable axis, an unwritten element caught.
#include "kernels/kit/bench_family.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/errors.hpp"
#include "kernels/kit/bench_expr.hpp"

namespace memwall::kit {
namespace {

std::optional<ExprValue> axes(const std::string& name) {
    if (name == "n") return ExprValue{10, true};
    if (name == "a") return ExprValue{0.5, false};
    return std::nullopt;
}

TEST(BenchExpr, EvaluatesArithmeticOfTheAxes) {
    EXPECT_EQ(evaluate("n", axes).value, 10);
    EXPECT_EQ(evaluate("2 * (n + 1) - 3", axes).value, 19);
    EXPECT_EQ(evaluate("n / 4", axes).value, 2);  // integers divide as in C
    EXPECT_EQ(evaluate("n % 4", axes).value, 2);
    EXPECT_FALSE(evaluate("n * a", axes).integral);
    EXPECT_EQ(evaluate("-n + 1e1", axes).value, 0);
    for (const char* bad : {"n +", "m", "(n", "n / 0", "n $ 2", ""})
        EXPECT_THROW(evaluate(bad, axes), std::invalid_argument) << bad;
}

Params point(std::int64_t n) {
    Params p;
    p.set("n", n);
    return p;
}

// z = x + y over n floats; `wrong` adds 1 to the last element, `reference` gives one.
Bench add(bool reference, bool wrong) {
    Bench b("add");
    b.axis("n", {100}).input<float>("x", "n").input<float>("y", "n").output<float>("z", "n");
    b.cpu([wrong](BenchArgs& c) {
        const float *x = c.in("x"), *y = c.in("y");
        float* z = c.out("z");
        const long n = c["n"];
        for (long i = 0; i < n; ++i) z[i] = x[i] + y[i] + (wrong && i == n - 1 ? 1.0f : 0.0f);
    });
    if (reference)
        b.reference([](BenchArgs& c) {
            const float *x = c.in("x"), *y = c.in("y");
            float* z = c.out("z");
            for (long i = 0; i < long(c["n"]); ++i) z[i] = x[i] + y[i];
        });
    return b;
}

Catalogue catalogue_of(Bench (*define)()) {
    Catalogue c;
    add_benches(c, {{"add_loop", define, {}}});
    return c;
}

Check run_cpu(const Catalogue& c, std::int64_t n = 100) {
    const Variant& v = c.variant("add", "add_loop", Backend::cpu);
    const auto w = c.family("add").make_workload(point(n), 7);
    auto inst = v.prepare(*w, point(n));
    inst->poison();
    inst->run();
    return inst->check();
}

TEST(Bench, ACpuBenchmarkWithAReferencePassesAndAWrongOneFails) {
    const Check ok = run_cpu(catalogue_of([] { return add(true, false); }));
    EXPECT_TRUE(ok.ok) << ok.message;
    EXPECT_FALSE(ok.unchecked);
    EXPECT_LE(ok.error, 1e-7);
    const Check wrong = run_cpu(catalogue_of([] { return add(true, true); }));
    EXPECT_FALSE(wrong.ok);
    EXPECT_NE(wrong.message.find("over z"), std::string::npos) << wrong.message;
}

TEST(Bench, WithoutAReferenceACaseIsUncheckedAndSoIsItsVariant) {
    const Catalogue c = catalogue_of([] { return add(false, true); });
    const Check ch = run_cpu(c);
    EXPECT_TRUE(ch.ok);
    EXPECT_TRUE(ch.unchecked);
    EXPECT_TRUE(c.variant("add", "add_loop", Backend::cpu).unchecked);
    EXPECT_FALSE(catalogue_of([] { return add(true, false); }).variant("add", "add_loop", Backend::cpu).unchecked);
}

TEST(Bench, BenchmarksOfOneFamilyAreItsVariantsCheckedByTheFirstsReference) {
    Catalogue c;
    add_benches(
        c, {{"add_loop", [] { return add(true, false); }, {}}, {"add_wrong", [] { return add(false, true); }, {}}});
    ASSERT_EQ(c.family("add").variants.size(), 2u);
    const Variant& wrong = c.variant("add", "add_wrong", Backend::cpu);
    EXPECT_FALSE(wrong.unchecked);
    const auto w = c.family("add").make_workload(point(100), 7);
    auto inst = wrong.prepare(*w, point(100));
    inst->poison();
    inst->run();
    EXPECT_FALSE(inst->check().ok);

    Catalogue unlike;
    EXPECT_THROW(add_benches(unlike, {{"add_loop", [] { return add(true, false); }, {}},
                                      {"longer", [] { return add(true, false).axis("m", {1}); }, {}}}),
                 std::logic_error);
}

TEST(Bench, ItsModelCountsEachArrayOnce) {
    const Catalogue c = catalogue_of([] { return add(true, false); });
    MemoryHierarchy mh;
    const auto counters = c.variant("add", "add_loop", Backend::cpu).model(point(1000), mh);
    const Counter* min = find_counter(counters, "bytes.min");
    ASSERT_NE(min, nullptr);
    EXPECT_EQ(min->value, 3 * 4 * 1000);
}

TEST(Bench, InputsComeFromTheSeedNeverZeroOrInTheirRange) {
    Catalogue c;
    add_benches(c, {{"fill",
                     [] {
                         return Bench("fill")
                             .axis("n", {4000})
                             .input<double>("x", "n")
                             .input<int>("i", "n", "0", "n / 1000")
                             .output<double>("y", "n")
                             .cpu([](BenchArgs& a) {
                                 const double* x = a.in("x");
                                 const int* i = a.in("i");
                                 double* y = a.out("y");
                                 for (long k = 0; k < long(a["n"]); ++k) y[k] = x[k] * 1000 + i[k];
                             })
                             .reference([](BenchArgs& a) {
                                 const double* x = a.in("x");
                                 const int* i = a.in("i");
                                 double* y = a.out("y");
                                 bool seen[5] = {};
                                 for (long k = 0; k < long(a["n"]); ++k) {
                                     EXPECT_GE(std::abs(x[k]), 0.5);
                                     EXPECT_LE(std::abs(x[k]), 1.5);
                                     ASSERT_GE(i[k], 0);
                                     ASSERT_LE(i[k], 4);
                                     seen[i[k]] = true;
                                     y[k] = x[k] * 1000 + i[k];
                                 }
                                 for (bool s : seen) EXPECT_TRUE(s);
                             });
                     },
                     {}}});
    const Variant& v = c.variant("fill", "fill", Backend::cpu);
    const auto w = c.family("fill").make_workload(point(4000), 3);
    auto inst = v.prepare(*w, point(4000));
    inst->poison();
    inst->run();
    EXPECT_TRUE(inst->check().ok) << inst->check().message;
}

TEST(Bench, AnArrayTakenAsAnotherTypeIsRefused) {
    Catalogue c;
    add_benches(c, {{"typo",
                     [] {
                         return Bench("typo").axis("n", {8}).input<float>("x", "n").output<float>("y", "n").cpu(
                             [](BenchArgs& a) {
                                 const double* x = a.in("x");  // declared float
                                 (void)x;
                             });
                     },
                     {}}});
    const auto w = c.family("typo").make_workload(point(8), 1);
    auto inst = c.variant("typo", "typo", Backend::cpu).prepare(*w, point(8));
    EXPECT_THROW(inst->run(), std::logic_error);
}

TEST(Bench, MalformedDeclarationsAreRefusedWhenRegistered) {
    const auto refused = [](Bench (*define)(), const char* why) {
        Catalogue c;
        try {
            add_benches(c, {{"b", define, {}}});
            ADD_FAILURE() << "accepted: " << why;
        } catch (const std::logic_error& e) {
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    };
    refused([] { return Bench("f").axis("n", {8}).output<float>("y", "m").cpu([](BenchArgs&) {}); }, "no axis 'm'");
    refused([] { return Bench("f").axis("n", {8}).output<float>("y", "n"); }, "no .cpu body");
    refused([] { return Bench("f").axis("n", {8}).output<float>("y", "n").cuda([](BenchArgs&) {}); },
            ".cuda needs a CUDA source");
    refused([] { return Bench("f").axis("n", {8}).axis("n", {9}).output<float>("y", "n").cpu([](BenchArgs&) {}); },
            "two axes or arrays named n");
    refused([] { return Bench("f").axis("n", {8}).input<int>("i", "n", "0", "").cpu([](BenchArgs&) {}); },
            "both ends of its range");
    Catalogue twice;
    EXPECT_THROW(
        add_benches(twice, {{"b", [] { return add(true, false); }, {}}, {"b", [] { return add(true, false); }, {}}}),
        std::logic_error);
}

TEST(Bench, ASizeThatIsNoPositiveIntegerIsAUsageError) {
    Catalogue c;
    add_benches(
        c,
        {{"half", [] { return Bench("half").axis("n", {8}).output<float>("y", "n - 8").cpu([](BenchArgs&) {}); }, {}}});
    EXPECT_THROW(c.family("half").make_workload(point(8), 1), UsageError);
}

// bench_probe.cu, registered by MEMWALL_BENCH as a program's sources are.
TEST(Bench, CudaBenchmarksRunOnCudaEmuWithTypedOutputsAndExactTraffic) {
    Catalogue c;
    register_benches(c);
    const Variant& v = c.variant("probe_gather", "gather_probe", Backend::cuda_emu);
    ASSERT_EQ(v.tunables.size(), 1u);
    EXPECT_EQ(v.tunables[0].name, "threads");
    Params problem;
    problem.set("n", std::int64_t{1000});
    problem.set("m", std::int64_t{64});
    const auto w = c.family("probe_gather").make_workload(problem, 5);
    for (std::int64_t threads : {64, 128}) {
        Params config;
        config.set("threads", threads);
        auto inst = v.prepare(*w, problem.merged(config));
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << ch.message;
        EXPECT_FALSE(ch.unchecked);
        // Loads per element: index (4 B), x through it (4 B), bytes (1 B); stores: y (2 B), sum (8 B).
        const auto cs = inst->measured_counters();
        const Counter* loads = find_counter(cs, "emu.global_load_bytes");
        const Counter* stores = find_counter(cs, "emu.global_store_bytes");
        ASSERT_TRUE(loads && stores);
        EXPECT_EQ(loads->value, 1000 * (4 + 4 + 1));
        EXPECT_EQ(stores->value, 1000 * (2 + 8));
    }
    EXPECT_NO_THROW(c.variant("probe_gather", "gather_probe", Backend::cuda));
}

TEST(Bench, ACudaKernelThatLeavesAnElementUnwrittenFailsItsCheck) {
    Catalogue c;
    register_benches(c);
    Params p;
    p.set("n", std::int64_t{300});
    const auto w = c.family("probe_copy").make_workload(p, 1);
    auto inst = c.variant("probe_copy", "copy_short", Backend::cuda_emu).prepare(*w, p);
    inst->poison();
    inst->run();
    const Check ch = inst->check();
    EXPECT_FALSE(ch.ok);
    EXPECT_NE(ch.message.find("y[299]"), std::string::npos) << ch.message;
}

}  // namespace
}  // namespace memwall::kit
