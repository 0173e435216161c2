#include "cli/tune_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

#include "harness/progress.hpp"
#include "results/report.hpp"

namespace memwall {

TuneProgress::TuneProgress(std::size_t limit, std::string time_label, bool enabled)
    : limit_(limit),
      label_(std::move(time_label)),
      enabled_(enabled && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

void TuneProgress::measuring(std::size_t done, const std::string& config) {
    done_ = done;
    measuring_ = config;
    draw();
}

void TuneProgress::best(double seconds, const std::string& config) {
    best_ = seconds;
    best_config_ = config;
    draw();
}

void TuneProgress::finish() {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

std::string TuneProgress::line(std::size_t done, std::size_t limit, double best_seconds, const std::string& best_config,
                               const std::string& time_label, double elapsed, const std::string& measuring,
                               std::size_t width) {
    std::string out = "tune " + std::to_string(done) + (limit ? "/" + std::to_string(limit) : "") + " evaluations";
    if (best_config.empty()) {
        out += "  best -";
    } else {
        out += "  best " + format_duration(best_seconds) + (time_label.empty() ? "" : " " + time_label) + " at " +
               best_config;
    }
    out += "  " + Progress::format_duration(elapsed);
    if (!measuring.empty()) out += "  measuring " + measuring;
    if (out.size() > width) out.resize(width);
    return out;
}

void TuneProgress::draw() {
    if (!enabled_) return;
    winsize ws{};
    std::size_t width = 100;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) width = ws.ws_col - 1;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r\033[K%s",
                 line(done_, limit_, best_, best_config_, label_, elapsed, measuring_, width).c_str());
    std::fflush(stderr);
}

}  // namespace memwall
