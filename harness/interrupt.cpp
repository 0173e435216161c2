#include "harness/interrupt.hpp"

#include <csignal>

namespace memwall {

std::atomic<bool> stop_requested{false};

namespace {
void on_signal(int) { stop_requested = true; }
}  // namespace

InterruptScope::InterruptScope()
    : previous_int_(std::signal(SIGINT, on_signal)), previous_term_(std::signal(SIGTERM, on_signal)) {
    stop_requested = false;  // a session before this one in the same process may have been stopped
}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
}

}  // namespace memwall
