// What a strategy tunes against: an Objective evaluates one configuration of its space and
// returns the time, the counters and, for a configuration that cannot run, why. Replay
// implements it from a recorded space; live tuning implements it through the harness.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/counter.hpp"
#include "tuner/tuning_space.hpp"

namespace memwall {

// invalid: rejected before running (a constraint); compile_failed / runtime_failed: the
// kernel did not build or did not run; failed: any other failure (wrong result, ...).
enum class EvalStatus { ok, invalid, compile_failed, runtime_failed, failed };

std::string_view to_string(EvalStatus s);
std::optional<EvalStatus> eval_status_from(std::string_view s);

struct Evaluation {
    EvalStatus status = EvalStatus::ok;
    std::string reason;             // why it failed, as the source says it; empty when ok
    double seconds = 0;             // the objective: kernel time, when ok
    std::vector<double> samples;    // the timed executions behind `seconds`, when measured here
    std::vector<Counter> counters;  // with units and source; may be empty
    double cost_seconds = 0;        // what evaluating it cost (compile, verify, benchmark)

    bool ok() const { return status == EvalStatus::ok; }
};

class Objective {
  public:
    virtual ~Objective() = default;
    virtual const TuningSpace& space() const = 0;
    // `config` is an index into space(). Called once per configuration by tune(), and again
    // for a confirmation when noisy().
    virtual Evaluation evaluate(std::size_t config) = 0;
    // Whether evaluating a configuration again can give another time (a measurement here, as
    // opposed to a recorded or predicted one).
    virtual bool noisy() const { return false; }
};

}  // namespace memwall
