#include "harness/interrupt.hpp"

#include <string>

#include "core/errors.hpp"

namespace memwall {

std::atomic<bool> stop_requested{false};

namespace {

constexpr int kInterrupts[] = {SIGINT, SIGTERM, SIGHUP};
int scopes = 0;  // live InterruptScopes: one inside another keeps what the outer one heard

void on_signal(int) { stop_requested = true; }

}  // namespace

bool is_interrupt_signal(int signal) {
    for (int s : kInterrupts)
        if (s == signal) return true;
    return false;
}

void throw_if_interrupted(const char* what) {
    // Outside a scope the flag may be a finished session's: nothing is listening for it now.
    if (scopes > 0 && stop_requested) throw Interrupted(std::string("interrupted while ") + what);
}

InterruptScope::InterruptScope() {
    if (scopes++ == 0) stop_requested = false;  // a session before this one in the process may have been stopped
    struct sigaction on {};
    on.sa_handler = on_signal;
    sigemptyset(&on.sa_mask);
    on.sa_flags = SA_RESTART;  // a pipe read or a SQLite write goes on; the flag is polled
    for (int i = 0; i < 3; ++i) sigaction(kInterrupts[i], &on, &previous_[i]);
}

InterruptScope::~InterruptScope() {
    for (int i = 0; i < 3; ++i) sigaction(kInterrupts[i], &previous_[i], nullptr);
    --scopes;
}

}  // namespace memwall
