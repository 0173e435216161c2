// Guided: counter-guided, model-based search. A TimePredictor learns online from every
// configuration measured so far (the counters' roofline bound and the inefficiency over it, or
// the time alone when there are no counters). Most steps measure, among the unmeasured
// neighbours (Hamming distance <= 2) of the best configurations of a few regions apart, the one
// whose time drawn from the model's belief is lowest (Thompson sampling: promising and uncertain
// ones both get their turn); the other steps measure the configuration of highest expected
// improvement in a random sample of the whole space, so the search does not stay in one basin.
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
// the measured times how the prior maps to this device, and how far to trust it. Told the
// configuration run untuned (Prior::start), it measures that first: the rest must beat it.
//
// The stopping rule asks for the chance that some unevaluated configuration is faster than the
// best by more than the noise. It asks a model of its own, a Gaussian process over the
// parameters (AnovaProcess) on what the prior leaves of the measured times: the search's forest
// ranks well, but the spread between its trees is no measure of its error (on attention/flash it
// leaves a 13% chance at the likeliest configuration after a quarter of the space, with the
// optimum long found). The errors at different configurations are far from independent (a parameter's
// value shared by many), so the chance that any one beats the best is drawn from the process's
// joint belief over the likeliest configurations, not summed: a sum counts one doubt about a
// value once per configuration that has it. Once the doubt lies in a few configurations, the
// likeliest to beat the best is measured next, as that settles the question soonest. A model needs
// a few measurements before it can rule anything out, so it does not judge before kJudgeAfter.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <queue>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tuner/anova_process.hpp"
#include "tuner/time_predictor.hpp"
#include "tuner/strategies/strategies.hpp"

namespace memwall {

namespace {

constexpr std::size_t kInitial = 3;         // configurations before the first model: random, or far apart by the prior
constexpr std::size_t kRefitDivisor = 25;   // refit after max(1, n / kRefitDivisor) new evaluations
constexpr std::size_t kGlobalSample = 500;  // random candidates of a global step
constexpr std::size_t kElite = 3;           // regions whose best configurations' neighbourhoods are searched
constexpr double kGlobalShare = 0.2;        // of the steps
constexpr double kBelief = 1.5;             // widens the model's spread in Thompson draws
constexpr std::size_t kJudgeAfter = 10;     // evaluations before the stopping rule is judged, at least 2 per parameter
constexpr std::size_t kJudgeRows = 200;     // measurements the stopping rule's model is fitted to, at most
constexpr std::size_t kJointConfigs = 128;  // configurations whose chances the rule judges jointly, at most
constexpr std::size_t kJointDraws = 4000;   // draws of their joint values: the chance to about +-0.35% at 5%

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

class Guided final : public Strategy {
  public:
    Guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior)
        : space_(space),
          rng_(seed),
          model_(space, prior),
          judge_(space.levels()),
          start_(prior ? prior->start : std::nullopt),
          initial_(kInitial + (start_ ? 1 : 0)) {}

    std::optional<std::size_t> propose(const History& h) override {
        if (start_ && h.evaluations() == 0) return start_;
        if (model_.has_prior() && h.evaluations() < initial_)
            if (auto c = least_work(h)) return c;
        if ((!model_.has_prior() && h.evaluations() < initial_) || !h.best_config())
            return search::random_unevaluated(h, rng_);
        if (suspect_ && !h.evaluated(*suspect_)) return std::exchange(suspect_, std::nullopt);
        if (h.evaluations() >= next_fit_) fit(h);
        std::optional<std::size_t> c;
        if (!std::bernoulli_distribution(kGlobalShare)(rng_)) c = local_step(h);
        if (!c) c = global_step(h);
        return c;
    }

    // Also picks the suspect: once the doubt lies in a few configurations (the chances outside the
    // likeliest kJointConfigs sum below 1), measuring the likeliest next is what settles the
    // question soonest, and it is the search's best bet of a faster one besides.
    bool judges() const override { return true; }

    std::optional<double> improvement_chance(const History& h, double margin) override {
        const std::size_t judge_after = std::max(kJudgeAfter, 2 * space_.parameters().size());
        if (h.evaluations() < judge_after || !h.best_config()) return std::nullopt;
        fit_judge(h, margin / kNoiseMarginPerSpread);
        const double beat = std::log(h.best_seconds()) - std::log1p(margin);
        // The likeliest kJointConfigs, judged jointly; the others' chances added to theirs.
        using Scored = std::pair<double, std::size_t>;  // chance, configuration
        std::priority_queue<Scored, std::vector<Scored>, std::greater<>> likeliest;
        double rest = 0;
        suspect_.reset();
        for (std::size_t c = 0; c < space_.size(); ++c) {
            if (h.evaluated(c)) continue;
            const double chance = judge_.chance_below(space_.config(c), beat - model_.log_work(c));
            if (chance <= 0) continue;
            likeliest.emplace(chance, c);
            if (likeliest.size() <= kJointConfigs) continue;
            rest += likeliest.top().first;
            likeliest.pop();
            if (rest >= 1) return 1.0;
        }
        std::vector<const Config*> configs(likeliest.size());
        std::vector<double> levels(likeliest.size());
        for (std::size_t i = likeliest.size(); i-- > 0; likeliest.pop()) {  // likeliest first: draws end sooner
            const std::size_t c = likeliest.top().second;
            configs[i] = &space_.config(c);
            levels[i] = beat - model_.log_work(c);
            if (i == 0) suspect_ = c;
        }
        const double joint = judge_.chance_any_below(configs, levels, kJointDraws, h.evaluations());
        return std::min(1.0, joint + rest);
    }

  private:
    // The rule's process, fitted to what the prior's columns (none without a prior) leave of the
    // log-times: of the fastest kJudgeRows at most (it costs the cube of its rows, and the
    // question is about the fast end), reverting to the mean of all away from them, with the
    // noise the margin was made of (a measurement's spread, at least 1%).
    void fit_judge(const History& h, double noise) {
        std::vector<std::pair<double, std::size_t>> ok;
        for (std::size_t i = 0; i < h.evaluations(); ++i)
            if (const auto& e = h.entry(i); e.evaluation.ok())
                ok.emplace_back(std::log(e.evaluation.seconds), e.config);
        const std::size_t keep = std::min(ok.size(), kJudgeRows);
        std::partial_sort(ok.begin(), ok.begin() + static_cast<std::ptrdiff_t>(keep), ok.end());
        std::vector<const Config*> rows;
        std::vector<double> y;
        double level = 0;
        for (std::size_t i = 0; i < ok.size(); ++i) {
            const double rest = ok[i].first - model_.log_work(ok[i].second);
            level += rest / static_cast<double>(ok.size());
            if (i >= keep) continue;
            rows.push_back(&space_.config(ok[i].second));
            y.push_back(rest);
        }
        judge_.fit(rows, y, noise, level);
    }

    void fit(const History& h) {
        model_.fit(h, rng_);
        next_fit_ = h.evaluations() + std::max<std::size_t>(1, h.evaluations() / kRefitDivisor);
    }

    // The best ok configuration of a few regions: the fastest, then each next fastest that
    // differs from every one chosen in half of the varying parameters (rounded down, at least
    // one) or more. The fastest few are often neighbours on one plateau; a region whose best is a
    // little slower can hold the optimum several parameters away (on an A100's convolution space, the optimum sits four
    // or more parameters from a plateau of configurations 1.5x slower that the A4000's times lead to).
    std::vector<std::size_t> elite(const History& h) const {
        std::vector<std::pair<double, std::size_t>> ok;
        for (std::size_t i = 0; i < h.evaluations(); ++i) {
            const auto& e = h.entry(i);
            if (e.evaluation.ok()) ok.emplace_back(e.evaluation.seconds, e.config);
        }
        std::sort(ok.begin(), ok.end());
        const int apart = std::max(1, static_cast<int>(space_.varying() / 2));
        std::vector<std::size_t> out;
        for (const auto& timed : ok) {
            if (out.size() == kElite) break;
            const std::size_t c = timed.second;
            if (std::all_of(out.begin(), out.end(), [&](std::size_t e) {
                    return TuningSpace::hamming(space_.config(e), space_.config(c)) >= apart;
                }))
                out.push_back(c);
        }
        return out;
    }

    // The unevaluated configuration the prior alone predicts fastest, among those that differ
    // from every one evaluated in at least half of the varying parameters (a prior from another
    // device may rank one region first that is not the fastest here: the first few start in
    // different regions); ties broken at random. nullopt when none is that far.
    std::optional<std::size_t> least_work(const History& h) {
        const std::size_t d = space_.varying();
        const int apart = static_cast<int>(std::max((d + 1) / 2, std::min<std::size_t>(d, 2)));
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
    TimePredictor model_;
    AnovaProcess judge_;                  // the stopping rule's model
    std::optional<std::size_t> suspect_;  // the configuration the rule last found likeliest to beat the best
    std::optional<std::size_t> start_;    // Prior::start
    std::size_t initial_;                 // evaluations before the first model: the start and kInitial more
    std::size_t next_fit_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior) {
    return std::make_unique<Guided>(space, seed, prior);
}

}  // namespace memwall
