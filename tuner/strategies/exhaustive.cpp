// Every configuration in the space's order.
#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {
class Exhaustive final : public Strategy {
  public:
    std::optional<std::size_t> propose(const History& h) override {
        while (next_ < h.space().size() && h.evaluated(next_)) ++next_;
        if (next_ == h.space().size()) return std::nullopt;
        return next_++;
    }

  private:
    std::size_t next_ = 0;
};
}  // namespace

std::unique_ptr<Strategy> make_exhaustive() { return std::make_unique<Exhaustive>(); }

}  // namespace memwall
