// A one-line progress bar with ETA on stderr; silent unless stderr is a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace memwall {

class Progress {
  public:
    // Draws only when `enabled` and stderr is a terminal.
    Progress(std::size_t total, bool enabled);
    void begin(const std::string& label);  // a step starts
    void end();                            // a step ends
    void finish();                         // clears the line

    // "1m05s", "42s": exposed for tests.
    static std::string format_duration(double seconds);
    // The bar line for a state, without terminal control characters.
    static std::string line(std::size_t done, std::size_t total, double elapsed, const std::string& label,
                            std::size_t width);

  private:
    void draw();
    std::size_t total_, done_ = 0;
    bool enabled_;
    std::string label_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace memwall
