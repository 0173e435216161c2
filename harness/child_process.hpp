// A child process that speaks lines over pipes: the worker processes of isolated cases
// (case_worker) and of paired builds (ci/measure_worker). It dies with its parent
// (PR_SET_PDEATHSIG), so a killed sweep leaves no orphan measuring on.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace memwall {

// The child is gone (its pipe closed): `how` says how it ended ("was killed by signal 11
// (SIGSEGV)", "exited with status 1"), `signal` the signal that killed it (0: none, or unknown).
struct ChildGone : std::runtime_error {
    explicit ChildGone(const std::string& ended, int killed_by = 0)
        : std::runtime_error(ended), how(ended), signal(killed_by) {}
    std::string how;
    int signal;
};

struct ChildOptions {
    // Set OMP_WAIT_POLICY=passive unless the environment sets it: for two workers sharing the
    // cores, where one's OpenMP threads spinning idle after its sample would steal the other's.
    bool passive_openmp = false;
    // RLIMIT_DATA in bytes (0: none). It counts heap and private writable mappings, not the
    // address space reservations a CUDA context makes, so it limits what a kernel allocates.
    std::uint64_t memory_limit = 0;
};

// "was killed by signal 9 (SIGKILL)" or "exited with status 3", from a waitpid status.
std::string describe_exit(int wait_status);

class ChildProcess {
  public:
    using Clock = std::chrono::steady_clock;

    // Starts argv[0] (a path) with pipes to its stdin and stdout; its stderr is ours. It ignores
    // SIGINT, so Ctrl-C reaches only this process, which decides what the child finishes.
    ChildProcess(const std::vector<std::string>& argv, const ChildOptions& options = {});
    // Closes its input (a worker's cue to exit), waits a moment, then kills it.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    // Throws ChildGone when it has ended.
    void send(const std::string& line);
    // The next line without '\n'; nullopt when `deadline` passes first. Throws ChildGone.
    std::optional<std::string> receive(std::optional<Clock::time_point> deadline = std::nullopt);
    // SIGKILL and reap; returns how it ended.
    std::string kill();

  private:
    [[noreturn]] void gone();
    std::string reap();  // waits for the child; how it ended
    pid_t pid_ = -1;
    int killed_by_ = 0;  // the signal that ended it, once reaped
    int to_ = -1, from_ = -1;
    bool reaped_ = false;
    std::string buffer_;
};

}  // namespace memwall
