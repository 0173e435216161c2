// The live line of `memwall tune` on stderr: evaluations, the best so far, elapsed time and
// the configuration being measured. Silent unless stderr is a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace memwall {

class TuneProgress {
  public:
    // `limit`: the evaluation budget (0: none); `time_label` follows every time shown
    // ("predicted (H100 SXM roofline)"), empty for measured times.
    TuneProgress(std::size_t limit, std::string time_label, bool enabled);
    // A configuration is being measured; `done` evaluations finished before it.
    void measuring(std::size_t done, const std::string& config);
    // The best so far changed (or was first found).
    void best(double seconds, const std::string& config);
    void finish();  // clears the line

    // The line for a state, without terminal control characters; exposed for tests.
    static std::string line(std::size_t done, std::size_t limit, double best_seconds, const std::string& best_config,
                            const std::string& time_label, double elapsed, const std::string& measuring,
                            std::size_t width);

  private:
    void draw();
    std::size_t limit_, done_ = 0;
    std::string label_, best_config_, measuring_;
    double best_ = 0;
    bool enabled_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace memwall
