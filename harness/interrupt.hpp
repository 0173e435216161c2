// Ctrl-C and SIGTERM, in one place for every command: while an InterruptScope lives they set
// stop_requested, and whoever measures finishes the case (or trial, or pair) in flight, starts
// no other and records the run as interrupted.
#pragma once

#include <atomic>

namespace memwall {

extern std::atomic<bool> stop_requested;

class InterruptScope {
public:
    InterruptScope();   // installs the handlers
    ~InterruptScope();  // restores the previous ones
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    void (*previous_int_)(int);
    void (*previous_term_)(int);
};

}  // namespace memwall
