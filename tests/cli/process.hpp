// Running the memwall binary from tests, and inspecting what it left on disk.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace memwall::test {

struct Result {
    int status = -1;  // exit status, or 128 + signal
    std::string out, err;
};

// Runs MEMWALL_BINARY with `args` in `cwd`, waits, and returns its exit status and output.
Result run_memwall(const std::vector<std::string>& args, const std::filesystem::path& cwd);
// The same with another executable that calls run_cli (one with test-only kernels).
Result run_program(const std::string& binary, const std::vector<std::string>& args, const std::filesystem::path& cwd);

// Starts it without waiting; output goes to files in `cwd`.
pid_t spawn_memwall(const std::vector<std::string>& args, const std::filesystem::path& cwd);
pid_t spawn_program(const std::string& binary, const std::vector<std::string>& args, const std::filesystem::path& cwd);

// Starts it as the leader of a new process group, as a shell job is, so that a signal can go to
// the group (kill(-pid, sig)), as `timeout`, Slurm and CI runners send theirs.
pid_t spawn_group(const std::string& binary, const std::vector<std::string>& args, const std::filesystem::path& cwd);
// Waits up to `seconds` for it to end and returns its status (exit status, or 128 + signal); past
// that, kills its group with SIGKILL and returns -1.
int wait_bounded(pid_t pid, double seconds);
// Its output files (stdout, stderr) as spawn_* left them beside `cwd`.
Result output_of(const std::filesystem::path& cwd, int status);

// A fresh empty directory under the system temp dir, removed by the destructor.
struct TempDir {
    TempDir();
    ~TempDir();
    std::filesystem::path path;
};

// Names and contents of every file in `dir`, to show nothing was created or modified.
std::vector<std::pair<std::string, std::string>> snapshot(const std::filesystem::path& dir);

// Lines of `text` (without the final newline).
std::vector<std::string> lines(const std::string& text);

}  // namespace memwall::test
