#include "harness/interrupt.hpp"

#include <csignal>

namespace memwall {

std::atomic<bool> stop_requested{false};

namespace {
void on_signal(int) { stop_requested = true; }
}  // namespace

InterruptScope::InterruptScope()
    : previous_int_(std::signal(SIGINT, on_signal)), previous_term_(std::signal(SIGTERM, on_signal)) {}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
}

}  // namespace memwall
