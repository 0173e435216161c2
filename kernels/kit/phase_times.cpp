#include "kernels/kit/phase_times.hpp"

#include <algorithm>

namespace memwall::kit {

void PhaseTimes::start() {
    ++run_;
    last_ = Clock::now();
}

double PhaseTimes::lap(std::string_view name) {
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    auto p = std::find_if(phases_.begin(), phases_.end(), [&](const Phase& x) { return x.name == name; });
    if (p == phases_.end()) p = phases_.insert(phases_.end(), Phase{std::string(name), {}});
    if (p->runs.size() < run_) p->runs.resize(run_, 0.0);
    p->runs[run_ - 1] += seconds;
    return seconds;
}

std::vector<Counter> PhaseTimes::counters() const {
    std::vector<Counter> out;
    for (const Phase& p : phases_) {
        std::vector<double> xs(p.runs.begin() + (p.runs.size() > 1 ? 1 : 0), p.runs.end());
        if (xs.empty()) continue;
        const auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
        std::nth_element(xs.begin(), mid, xs.end());
        out.push_back({"phase." + p.name + ".seconds", *mid, "s", CounterSource::timer});
    }
    return out;
}

}  // namespace memwall::kit
