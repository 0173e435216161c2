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
