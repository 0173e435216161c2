// Random search without replacement: a lazily drawn random permutation of the space.
#include <numeric>
#include <vector>

#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {
class RandomSearch final : public Strategy {
  public:
    RandomSearch(std::size_t n, std::uint64_t seed) : order_(n), rng_(seed) {
        std::iota(order_.begin(), order_.end(), std::uint32_t{0});
    }

    std::optional<std::size_t> propose(const History& h) override {
        while (next_ < order_.size()) {
            const std::size_t j = std::uniform_int_distribution<std::size_t>(next_, order_.size() - 1)(rng_);
            std::swap(order_[next_], order_[j]);
            const std::size_t c = order_[next_++];
            if (!h.evaluated(c)) return c;
        }
        return std::nullopt;
    }

  private:
    std::vector<std::uint32_t> order_;
    std::size_t next_ = 0;
    search::Rng rng_;
};
}  // namespace

std::unique_ptr<Strategy> make_random(const TuningSpace& space, std::uint64_t seed) {
    return std::make_unique<RandomSearch>(space.size(), seed);
}

}  // namespace memwall
