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
// it starts from the configurations the prior predicts fastest instead of random ones (a few, far
// apart: the fastest region elsewhere need not be the fastest here), and its model learns from
// the measured times how the prior maps to this device, and how far to trust it.
//
// The stopping rule asks the same model for the chance that some unevaluated configuration is
// faster than the best by more than the noise. Its errors are far from independent, so it takes
// the sum of each one's chance, which bounds that union whatever their dependence (Boole), under
// the model's spread widened where its errors on its latest proposals were wider. The sum falls
// only once the model rules out nearly everything unmeasured, which on a large rugged space comes
// late: the largest single chance, a lower bound, stopped a quarter of the runs on the shared
// A100 recording short of 10% from the optimum. A model needs a few measurements before it can
// rule anything out, so it does not judge before kJudgeAfter.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_set>
#include <vector>

#include "tuner/performance_model.hpp"
#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {

constexpr std::size_t kInitial = 3;         // configurations before the first model: random, or far apart by the prior
constexpr std::size_t kRefitDivisor = 25;   // refit after max(1, n / kRefitDivisor) new evaluations
constexpr std::size_t kGlobalSample = 500;  // random candidates of a global step
constexpr std::size_t kElite = 3;           // best configurations whose neighbourhoods are searched
constexpr double kGlobalShare = 0.2;        // of the steps
constexpr double kBelief = 1.5;             // widens the model's spread in Thompson draws
constexpr std::size_t kJudgeAfter = 10;     // evaluations before the stopping rule is judged, at least 2 per parameter
constexpr std::size_t kCalibrateAfter = 5;  // scored recent proposals before the model's spread is calibrated

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

class Guided final : public Strategy {
public:
    Guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior)
        : space_(space), rng_(seed), model_(space, prior) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (model_.has_prior() && h.evaluations() < kInitial)
            if (auto c = least_work(h)) return c;
        if ((!model_.has_prior() && h.evaluations() < kInitial) || !h.best_config())
            return search::random_unevaluated(h, rng_);
        if (h.evaluations() >= next_fit_) fit(h);
        std::optional<std::size_t> c;
        if (!std::bernoulli_distribution(kGlobalShare)(rng_)) c = local_step(h);
        if (!c) c = global_step(h);
        if (c) forecast_.emplace_back(*c, model_.predict(*c));
        return c;
    }

    std::optional<double> improvement_chance(const History& h, double margin) override {
        const std::size_t judge_after = std::max(kJudgeAfter, 2 * space_.parameters().size());
        if (h.evaluations() < judge_after || !h.best_config()) return std::nullopt;
        if (fitted_at_ != h.evaluations()) fit(h);
        const double beat = std::log(h.best_seconds()) - std::log1p(margin);
        const double scale = calibration(h);
        double any = 0;
        for (std::size_t c = 0; c < space_.size() && any < 1; ++c) {
            if (h.evaluated(c)) continue;
            const Prediction p = model_.predict(c);
            const double sd = scale * p.sd;
            any += sd > 1e-12 ? normal_cdf((beat - p.mean) / sd) : (p.mean < beat ? 1.0 : 0.0);
        }
        return std::min(1.0, any);
    }

private:
    // How far the model's spread falls short of its errors: the root mean square, over the later
    // half of the configurations it proposed and that then ran, of (measured - predicted) /
    // spread, as predicted when proposed (out of sample); the model learns, and its early errors
    // no longer say how far off it is now. Never below 1: proposals lie where the model is
    // surest (narrowing it to their errors stopped a noise-free search short of the optimum),
    // so a model accurate there may still be wrong elsewhere. 1 until a few are scored.
    double calibration(const History& h) const {
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t i = forecast_.size() / 2; i < forecast_.size(); ++i) {
            const auto& [config, p] = forecast_[i];
            const Evaluation* e = h.result(config);
            if (!e || !e->ok() || p.sd <= 1e-12) continue;
            const double z = (std::log(e->seconds) - p.mean) / p.sd;
            sum += z * z;
            ++n;
        }
        if (n < kCalibrateAfter) return 1.0;
        return std::max(1.0, std::sqrt(sum / static_cast<double>(n)));
    }

    void fit(const History& h) {
        model_.fit(h, rng_);
        fitted_at_ = h.evaluations();
        next_fit_ = h.evaluations() + std::max<std::size_t>(1, h.evaluations() / kRefitDivisor);
    }

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

    // The unevaluated configuration the prior alone predicts fastest, among those that differ
    // from every one evaluated in at least half of the varying parameters (a prior from another
    // device may rank one region first that is not the fastest here: the first few start in
    // different regions); ties broken at random. nullopt when none is that far.
    std::optional<std::size_t> least_work(const History& h) {
        std::size_t varying = 0;
        for (const auto& p : space_.parameters()) varying += p.values.size() > 1 ? 1 : 0;
        const int apart = static_cast<int>((varying + 1) / 2);
        std::vector<const Config*> evaluated;
        for (std::size_t i = 0; i < h.evaluations(); ++i) evaluated.push_back(&space_.config(h.entry(i).config));
        std::optional<std::size_t> pick;
        double pick_work = 0;
        std::size_t ties = 0;
        for (std::size_t c = 0; c < space_.size(); ++c) {
            if (h.evaluated(c)) continue;
            const double w = model_.log_work(c);
            if (pick && w > pick_work) continue;
            if (std::any_of(evaluated.begin(), evaluated.end(),
                            [&](const Config* e) { return TuningSpace::hamming(*e, space_.config(c)) < apart; }))
                continue;
            if (!pick || w < pick_work) {
                pick = c;
                pick_work = w;
                ties = 1;
            } else if (std::uniform_int_distribution<std::size_t>(0, ties++)(rng_) == 0) {
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
    std::size_t fitted_at_ = 0;  // evaluations the model was last fitted on
    std::vector<std::pair<std::size_t, Prediction>> forecast_;  // each proposal, as the model saw it then
};

}  // namespace

std::unique_ptr<Strategy> make_guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior) {
    return std::make_unique<Guided>(space, seed, prior);
}

}  // namespace memwall
