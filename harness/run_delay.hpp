// How long the threads of this process waited to run: the scheduler's run-queue delay, summed
// over every thread (/proc/self/task/*/schedstat, second field). A sample whose threads waited
// timed the other processes on the machine as much as the kernel: an OpenMP team waits at its
// barriers for a thread that was descheduled, so one thread's wait stretches the whole sample.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>

namespace memwall {

// Cumulative seconds of waiting, read before and after each sample; a fake in tests.
using RunDelaySource = std::function<double()>;

// The run-queue delay of every thread in `task_dir` (a /proc/<pid>/task folder), in seconds;
// nullopt when the kernel does not report it (no schedstat file, or one that cannot be read).
std::optional<double> run_delay_seconds(const std::filesystem::path& task_dir = "/proc/self/task");

// This process's run-queue delay as a source, or an empty function where the kernel does not
// report it (the sampler then keeps every sample, as before).
RunDelaySource process_run_delay();

}  // namespace memwall
