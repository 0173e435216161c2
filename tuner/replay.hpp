// Replay: "measuring" a configuration of a recorded space returns what was recorded for it.
#pragma once

#include "tuner/objective.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

class ReplayObjective final : public Objective {
  public:
    // Keeps a reference: `recorded` must outlive the objective.
    explicit ReplayObjective(const RecordedSpace& recorded) : recorded_(recorded) {}

    const TuningSpace& space() const override { return recorded_.space; }
    Evaluation evaluate(std::size_t config) override { return recorded_.results.at(config); }

  private:
    const RecordedSpace& recorded_;
};

}  // namespace memwall
