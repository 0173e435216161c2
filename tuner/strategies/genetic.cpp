// A genetic algorithm: a population of configurations, tournament selection, uniform
// crossover of value indices and mutation to neighbouring values; the two best survive each
// generation. A child that is not a valid configuration is bred again; a child already
// evaluated joins the generation at no cost; when breeding keeps producing those, a random new
// configuration immigrates instead.
#include <algorithm>
#include <vector>

#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {

constexpr std::size_t kPopulation = 20;
constexpr std::size_t kElite = 2;
constexpr int kBreedAttempts = 30;

class Genetic final : public Strategy {
  public:
    Genetic(const TuningSpace& space, std::uint64_t seed) : space_(space), rng_(seed) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (generation_.size() >= kPopulation) next_generation(h);
        if (population_.empty()) {  // the first generation is random
            auto c = search::random_unevaluated(h, rng_);
            if (c) generation_.push_back(*c);
            return c;
        }
        for (int attempt = 0; attempt < kBreedAttempts; ++attempt) {
            auto child = breed();
            if (!child) continue;
            if (!h.evaluated(*child)) {
                generation_.push_back(*child);
                return child;
            }
            if (generation_.size() + 1 < kPopulation) generation_.push_back(*child);
        }
        auto c = search::random_unevaluated(h, rng_);
        if (c) generation_.push_back(*c);
        return c;
    }

  private:
    struct ByFitness {
        const History& h;
        bool operator()(std::size_t a, std::size_t b) const {
            return search::fitness(h.result(a)) < search::fitness(h.result(b));
        }
    };

    void next_generation(const History& h) {
        std::vector<std::size_t> pool = generation_;
        std::sort(population_.begin(), population_.end(), ByFitness{h});
        for (std::size_t i = 0; i < std::min(kElite, population_.size()); ++i) pool.push_back(population_[i]);
        std::sort(pool.begin(), pool.end());
        pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
        std::sort(pool.begin(), pool.end(), ByFitness{h});
        if (pool.size() > kPopulation) pool.resize(kPopulation);
        population_ = std::move(pool);
        fitness_.clear();
        for (std::size_t c : population_) fitness_.push_back(search::fitness(h.result(c)));
        generation_.clear();
    }

    std::size_t tournament() {
        std::uniform_int_distribution<std::size_t> pick(0, population_.size() - 1);
        const std::size_t a = pick(rng_), b = pick(rng_);
        return fitness_[a] <= fitness_[b] ? population_[a] : population_[b];
    }

    std::optional<std::size_t> breed() {
        const Config& mum = space_.config(tournament());
        const Config& dad = space_.config(tournament());
        Config child(mum.size());
        std::bernoulli_distribution coin(0.5);
        const std::size_t varying = space_.varying();
        const double rate = varying ? 1.0 / static_cast<double>(varying) : 0.0;
        std::bernoulli_distribution mutate(rate);
        for (std::size_t p = 0; p < child.size(); ++p) {
            child[p] = coin(rng_) ? mum[p] : dad[p];
            const std::size_t n = space_.parameters()[p].values.size();
            if (n < 2 || !mutate(rng_)) continue;
            if (coin(rng_)) {  // step to the adjacent value
                const std::size_t v = child[p];
                child[p] = static_cast<std::uint16_t>(v == 0 ? 1 : v + 1 == n ? v - 1 : coin(rng_) ? v + 1 : v - 1);
            } else {
                child[p] = static_cast<std::uint16_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_));
            }
        }
        return space_.find(child);
    }

    const TuningSpace& space_;
    search::Rng rng_;
    std::vector<std::size_t> population_;  // sorted best first
    std::vector<double> fitness_;          // parallel to population_
    std::vector<std::size_t> generation_;  // configurations bred (or drawn) for the next one
};

}  // namespace

std::unique_ptr<Strategy> make_genetic(const TuningSpace& space, std::uint64_t seed) {
    return std::make_unique<Genetic>(space, seed);
}

}  // namespace memwall
