#include "faults_family.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace memwall::test {

namespace {

// y = 2x over n floats, checked against float64.
class Doubling final : public Workload {
  public:
    Doubling(std::int64_t n, std::uint64_t seed) : x(static_cast<std::size_t>(n)) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<float> u(0.5f, 1.5f);
        for (float& v : x) v = u(rng);
    }
    Check check(const std::vector<float>& y) const {
        double err = 0, ref = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double want = 2.0 * x[i];
            if (!std::isfinite(y[i])) return {false, 1, 1e-6, "element " + std::to_string(i) + " not written"};
            err += (y[i] - want) * (y[i] - want);
            ref += want * want;
        }
        const double rel = std::sqrt(err / ref);
        return {rel <= 1e-6, rel, 1e-6, ""};
    }
    std::vector<float> x;
};

enum class Fault { none, segfault, unbounded_alloc };

class FaultyInstance final : public Instance {
  public:
    FaultyInstance(const Doubling& w, Fault f) : w_(w), y_(w.x.size()), fault_(f) {}
    void poison() override { std::fill(y_.begin(), y_.end(), std::numeric_limits<float>::quiet_NaN()); }
    void run() override {
        if (fault_ == Fault::segfault) std::raise(SIGSEGV);
        if (fault_ == Fault::unbounded_alloc) allocate_forever();
        for (std::size_t i = 0; i < y_.size(); ++i) y_[i] = 2 * w_.x[i];
    }
    Check check() const override { return w_.check(y_); }

  private:
    // Only where a limit stops it: unlimited, it would take the test machine's memory.
    static void allocate_forever() {
        rlimit lim{};
        if (getrlimit(RLIMIT_DATA, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
            throw std::runtime_error("unbounded_alloc runs only under a memory limit (--case-memory)");
        std::vector<std::vector<char>> hog;
        for (;;) {
            hog.emplace_back(64 << 20);
            std::memset(hog.back().data(), 1, hog.back().size());
        }
    }
    const Doubling& w_;
    std::vector<float> y_;
    Fault fault_;
};

Variant variant(const char* name, const char* description, Fault fault, bool hang_in_setup = false) {
    Variant v;
    v.name = name;
    v.description = description;
    v.backend = Backend::cpu;
    v.prepare = [fault, hang_in_setup](const Workload& w, const Params&) -> std::unique_ptr<Instance> {
        while (hang_in_setup) std::this_thread::sleep_for(std::chrono::seconds(1));
        return std::make_unique<FaultyInstance>(workload_as<Doubling>(w), fault);
    };
    v.model = [](const Params& p, const MemoryHierarchy&) {
        const double n = static_cast<double>(p.integer("n"));
        return std::vector<Counter>{{std::string(counters::kFlops), n, "FLOP", CounterSource::model},
                                    {std::string(counters::kBytesMin), 8 * n, "B", CounterSource::model}};
    };
    return v;
}

}  // namespace

void register_faults(Catalogue& c) {
    Family f;
    f.name = "faults";
    f.description = "test only: y = 2x by variants that crash, hang or allocate without bound";
    f.problem_axes = {int_axis("n", {1000, 2000}, "elements")};
    f.make_workload = [](const Params& p, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<Doubling>(p.integer("n"), seed);
    };
    f.variants = {variant("ok", "correct", Fault::none),
                  variant("segfault", "raises SIGSEGV in its run", Fault::segfault),
                  variant("hang_setup", "never finishes its set-up", Fault::none, true),
                  variant("unbounded_alloc", "allocates 64 MiB after 64 MiB in its run", Fault::unbounded_alloc)};
    c.add_family(std::move(f));
}

}  // namespace memwall::test
