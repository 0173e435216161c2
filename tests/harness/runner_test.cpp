// The runner under Google Benchmark's repetitions: an interrupt between two repetitions, or a
// case failing in a later one, ends that benchmark cleanly (Google Benchmark aborted the whole
// process in its statistics check) and every complete case is stored.
#include "harness/runner.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "harness/gbench.hpp"
#include "harness/interrupt.hpp"
#include "harness/run_session.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

std::atomic<int> prepared{0};  // instances made so far: one per case and repetition
int stop_at = 0;               // the instance that sets stop_requested (0: none)
int fail_at = 0;               // the instance whose preparation fails (0: none)

class Quick final : public Instance {
  public:
    void poison() override {}
    void run() override {}
    Check check() const override { return {true, 0, 1e-6, ""}; }
};

Catalogue toy_catalogue() {
    Catalogue c;
    Family f;
    f.name = "toy";
    f.problem_axes = {int_axis("n", {1, 2, 3}, "")};
    f.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    c.add_family(std::move(f));
    Variant v;
    v.name = "quick";
    v.backend = Backend::cpu;
    v.prepare = [](const Workload&, const Params&) -> std::unique_ptr<Instance> {
        const int n = ++prepared;
        if (n == stop_at) stop_requested = true;  // as Ctrl-C during this repetition
        if (n == fail_at) throw std::runtime_error("failed in a later repetition");
        return std::make_unique<Quick>();
    };
    v.model = [](const Params&, const MemoryHierarchy&) { return std::vector<Counter>{}; };
    c.add_variant("toy", v);
    return c;
}

struct Measured {
    RunnerResult result;
    std::size_t stored = 0;
};

// Three cases of three repetitions each, measured in this process.
Measured measure_three(int stop, int fail) {
    prepared = 0;
    stop_at = stop;
    fail_at = fail;
    const Catalogue cat = toy_catalogue();
    test::TempDir dir;
    Store store = Store::open(dir.file("s.db"), Store::Mode::create);
    const InterruptScope interrupts;  // clears what the test before left
    const SweepSpec spec;
    const SweepPlan plan(spec, cat);
    RunSession session = RunSession::begin(store, run_info(spec, plan.members(), Provenance::here("test"), {}),
                                           spec.backends, {.ceilings = CeilingsMode::none, .progress = false});
    RunnerOptions opt;
    opt.measure.sampler.warmup_runs = 0;
    opt.measure.sampler.min_samples = 1;
    opt.measure.sampler.min_time = 0;
    opt.repetitions = 3;
    opt.progress = false;
    QuietReporter quiet;
    Measured m;
    m.result = session.measure(plan, opt, &quiet);
    m.stored = store.case_count(session.id());
    return m;
}

TEST(Runner, AnInterruptBetweenRepetitionsStoresTheCompleteCasesAndNoPartOfTheOneInFlight) {
    const Measured m = measure_three(5, 0);  // the second case's second repetition
    EXPECT_TRUE(m.result.interrupted);
    EXPECT_EQ(m.result.measured, 1u);
    EXPECT_EQ(m.stored, 1u);
    EXPECT_EQ(prepared, 5);  // no repetition started after the interrupt
}

TEST(Runner, ACaseFailingInALaterRepetitionIsStoredAsFailed) {
    const Measured m = measure_three(0, 5);
    EXPECT_FALSE(m.result.interrupted);
    EXPECT_EQ(m.result.measured, 3u);
    EXPECT_EQ(m.result.not_ok, 1u);
    EXPECT_EQ(m.stored, 3u);
}

}  // namespace
}  // namespace memwall
