// Interrupts, in one place for every command: SIGINT (Ctrl-C), SIGTERM and SIGHUP, whether sent
// to memwall alone or to its whole process group (as `timeout`, Slurm and CI runners send them).
// While an InterruptScope lives they set stop_requested, and whoever measures finishes the case
// (or trial, or pair) in flight, starts no other and records the run as interrupted. A case
// worker ignores SIGINT, so Ctrl-C lets its case finish; SIGTERM or SIGHUP to the group kills
// it, and that case is not stored (Interrupted), so that `run --resume` measures it.
#pragma once

#include <atomic>
#include <csignal>

namespace memwall {

extern std::atomic<bool> stop_requested;

// Whether `signal` is one of the interrupts: a worker killed by one was stopped, not failed.
bool is_interrupt_signal(int signal);

// Throws Interrupted once stop_requested is set while an InterruptScope lives: for long work with
// nothing to keep (planning).
void throw_if_interrupted(const char* what);

class InterruptScope {
  public:
    InterruptScope();   // installs the handlers
    ~InterruptScope();  // restores the previous ones
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

  private:
    struct sigaction previous_[3];
};

}  // namespace memwall
