// Guided: counter-guided, model-based search. A PerformanceModel learns online from every
// configuration measured so far (the counters' roofline bound and the inefficiency over it, or
// the time alone when there are no counters). Most steps measure, among the unmeasured
// neighbours (Hamming distance <= 2) of the best configurations, the one whose time drawn from
// the model's belief is lowest (Thompson sampling: promising and uncertain ones both get their
// turn); the other steps measure the configuration of highest expected improvement in a random
// sample of the whole space, so the search does not stay in one basin.
//
// Compared with KTT's profile-based searcher (an offline tree model of the counters, bottleneck
// scores from the best configuration of each batch, neighbours sampled by predicted improvement),
// the model here is learned online from the configurations already measured, bounds time with
// the roofline of its predicted counters, and keeps a share of global exploration.
//
// Given a Prior: KTT's offline knowledge in exact form (device-independent counts of every
// configuration, where the source has them) and other devices' recordings of the same kernel,
// it starts from the configuration the prior predicts fastest instead of random ones, and its
// model learns from the measured times how the prior maps to this device, and how far to trust it.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_set>
#include <vector>

#include "tuner/performance_model.hpp"
#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {

constexpr std::size_t kInitial = 3;         // random configurations before the first model, without a prior
constexpr std::size_t kRefitDivisor = 25;   // refit after max(1, n / kRefitDivisor) new evaluations
constexpr std::size_t kGlobalSample = 500;  // random candidates of a global step
constexpr std::size_t kElite = 3;           // best configurations whose neighbourhoods are searched
constexpr double kGlobalShare = 0.2;        // of the steps
constexpr double kBelief = 1.5;             // widens the model's spread in Thompson draws

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

class Guided final : public Strategy {
public:
    Guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior)
        : space_(space), rng_(seed), model_(space, prior) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (model_.has_prior() && h.evaluations() == 0) return least_work(h);
        if ((!model_.has_prior() && h.evaluations() < kInitial) || !h.best_config())
            return search::random_unevaluated(h, rng_);
        if (h.evaluations() >= next_fit_) {
            model_.fit(h, rng_);
            next_fit_ = h.evaluations() + std::max<std::size_t>(1, h.evaluations() / kRefitDivisor);
        }
        if (!std::bernoulli_distribution(kGlobalShare)(rng_))
            if (auto c = local_step(h)) return c;
        return global_step(h);
    }

private:
    // The best few ok configurations.
    std::vector<std::size_t> elite(const History& h) const {
        std::vector<std::pair<double, std::size_t>> ok;
        for (std::size_t i = 0; i < h.evaluations(); ++i) {
            const auto& e = h.entry(i);
            if (e.evaluation.ok()) ok.emplace_back(e.evaluation.seconds, e.config);
        }
        const std::size_t k = std::min(kElite, ok.size());
        std::partial_sort(ok.begin(), ok.begin() + static_cast<std::ptrdiff_t>(k), ok.end());
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < k; ++i) out.push_back(ok[i].second);
        return out;
    }

    // The unevaluated configuration the prior alone predicts fastest; ties broken at random.
    std::optional<std::size_t> least_work(const History& h) {
        std::optional<std::size_t> pick;
        double pick_work = 0;
        std::size_t ties = 0;
        for (std::size_t c = 0; c < space_.size(); ++c) {
            if (h.evaluated(c)) continue;
            const double w = model_.log_work(c);
            if (!pick || w < pick_work) {
                pick = c;
                pick_work = w;
                ties = 1;
            } else if (w == pick_work && std::uniform_int_distribution<std::size_t>(0, ties++)(rng_) == 0) {
                pick = c;
            }
        }
        return pick;
    }

    std::optional<std::size_t> local_step(const History& h) {
        std::unordered_set<std::size_t> seen;
        std::optional<std::size_t> pick;
        double pick_draw = 0;
        auto consider = [&](std::size_t c) {
            if (h.evaluated(c) || !seen.insert(c).second) return;
            const Prediction p = model_.predict(c);
            const double draw = p.mean + kBelief * p.sd * normal_(rng_);
            if (!pick || draw < pick_draw) {
                pick = c;
                pick_draw = draw;
            }
        };
        const std::size_t d = space_.parameters().size();
        for (std::size_t e : elite(h))
            for (std::size_t p = 0; p < d; ++p)
                for (std::uint32_t n1 : space_.line(e, p)) {  // the line holds e itself too
                    consider(n1);
                    for (std::size_t q = p + 1; q < d; ++q)
                        for (std::uint32_t n2 : space_.line(n1, q)) consider(n2);
                }
        return pick;
    }

    std::optional<std::size_t> global_step(const History& h) {
        const double best = std::log(h.best_seconds());
        std::optional<std::size_t> pick;
        double pick_ei = -1;
        for (std::size_t i = 0; i < kGlobalSample; ++i) {
            auto c = search::random_unevaluated(h, rng_);
            if (!c) break;
            const Prediction p = model_.predict(*c);
            const double gain = best - p.mean;
            double ei = std::max(0.0, gain);
            if (p.sd > 1e-12) ei = gain * normal_cdf(gain / p.sd) + p.sd * normal_pdf(gain / p.sd);
            if (ei > pick_ei) {
                pick_ei = ei;
                pick = c;
            }
        }
        return pick;
    }

    const TuningSpace& space_;
    search::Rng rng_;
    std::normal_distribution<double> normal_;
    PerformanceModel model_;
    std::size_t next_fit_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior) {
    return std::make_unique<Guided>(space, seed, prior);
}

}  // namespace memwall
