// Simulated annealing over Hamming-1 neighbourhoods. A worse neighbour is accepted with
// probability exp(-relative slowdown / T); T cools geometrically per evaluation and the walk
// restarts from a random configuration when it is cold or stuck. Moves onto configurations
// already evaluated cost nothing, so the walk takes them freely and proposes only new ones.
#include <cmath>

#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {

constexpr double kStartTemperature = 1.0;
constexpr double kColdTemperature = 0.005;
constexpr double kCooling = 0.97;       // per evaluation
constexpr int kFreeMovesPerStep = 200;  // walking over evaluated configurations before a restart

class Anneal final : public Strategy {
  public:
    explicit Anneal(std::uint64_t seed) : rng_(seed) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (pending_) {
            consider(*pending_, h);
            pending_.reset();
            temperature_ *= kCooling;
        }
        if (temperature_ < kColdTemperature) restart();
        for (int free = 0; current_ && free < kFreeMovesPerStep; ++free) {
            auto next = search::random_neighbour(h.space(), *current_, rng_);
            if (!next) break;
            if (!h.evaluated(*next)) return pending_ = next;
            consider(*next, h);
        }
        // No current configuration, or stuck among evaluated ones: start somewhere new.
        restart();
        return pending_ = search::random_unevaluated(h, rng_);
    }

  private:
    void restart() {
        current_.reset();
        temperature_ = kStartTemperature;
    }

    // Moves to `c` when it is better, or worse but accepted at the current temperature.
    void consider(std::size_t c, const History& h) {
        const double f = search::fitness(h.result(c));
        if (!std::isfinite(f)) return;
        if (!current_) {
            current_ = c;
            return;
        }
        const double cur = search::fitness(h.result(*current_));
        if (f <= cur || std::bernoulli_distribution(std::exp(-(f / cur - 1.0) / temperature_))(rng_)) current_ = c;
    }

    search::Rng rng_;
    std::optional<std::size_t> current_;
    std::optional<std::size_t> pending_;
    double temperature_ = kStartTemperature;
};

}  // namespace

std::unique_ptr<Strategy> make_anneal(const TuningSpace&, std::uint64_t seed) { return std::make_unique<Anneal>(seed); }

}  // namespace memwall
