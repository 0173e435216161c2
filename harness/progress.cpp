#include "harness/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace memwall {

Progress::Progress(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}

void Progress::begin(const std::string& label) {
    label_ = label;
    draw();
}

void Progress::end() {
    ++done_;
    draw();
}

void Progress::finish() {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

std::string Progress::format_duration(double s) {
    const long t = std::lround(s);
    char buf[32];
    if (t >= 3600) {
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    } else if (t >= 60) {
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%lds", t);
    }
    return buf;
}

std::string Progress::line(std::size_t done, std::size_t total, double elapsed, const std::string& label,
                           std::size_t width) {
    constexpr std::size_t bar = 24;
    const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    const auto filled = static_cast<std::size_t>(frac * bar);
    std::string out = "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "] ";
    out += std::to_string(done) + "/" + std::to_string(total);
    // ETA from the mean time per finished step; unknown before the first one ends.
    out += done ? "  ETA " + format_duration(elapsed / static_cast<double>(done) * static_cast<double>(total - done))
                : "  ETA ?";
    out += "  " + label;
    if (out.size() > width) out.resize(width);
    return out;
}

void Progress::draw() {
    if (!enabled_) return;
    winsize ws{};
    std::size_t width = 100;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) width = ws.ws_col - 1;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r\033[K%s", line(done_, total_, elapsed, label_, width).c_str());
    std::fflush(stderr);
}

}  // namespace memwall
