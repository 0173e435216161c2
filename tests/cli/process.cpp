#include "process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace memwall::test {

namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

pid_t spawn(const std::string& binary, const std::vector<std::string>& args, const fs::path& cwd, const fs::path& out,
            const fs::path& err, bool own_group = false) {
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        if (own_group) setpgid(0, 0);
        if (chdir(cwd.c_str()) != 0) _exit(126);
        int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        std::vector<std::string> all{binary};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        unsetenv("MEMWALL_DB");
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}
}  // namespace

Result run_memwall(const std::vector<std::string>& args, const fs::path& cwd) {
    return run_program(MEMWALL_BINARY, args, cwd);
}

Result run_program(const std::string& binary, const std::vector<std::string>& args, const fs::path& cwd) {
    // Output files live beside cwd, so snapshots of cwd do not see them.
    const fs::path out = cwd.parent_path() / (cwd.filename().string() + ".out");
    const fs::path err = cwd.parent_path() / (cwd.filename().string() + ".err");
    pid_t pid = spawn(binary, args, cwd, out, err);
    int st = 0;
    waitpid(pid, &st, 0);
    Result r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

pid_t spawn_memwall(const std::vector<std::string>& args, const fs::path& cwd) {
    return spawn_program(MEMWALL_BINARY, args, cwd);
}

pid_t spawn_program(const std::string& binary, const std::vector<std::string>& args, const fs::path& cwd) {
    return spawn(binary, args, cwd, cwd.parent_path() / (cwd.filename().string() + ".out"),
                 cwd.parent_path() / (cwd.filename().string() + ".err"));
}

pid_t spawn_group(const std::string& binary, const std::vector<std::string>& args, const fs::path& cwd) {
    const pid_t pid = spawn(binary, args, cwd, cwd.parent_path() / (cwd.filename().string() + ".out"),
                            cwd.parent_path() / (cwd.filename().string() + ".err"), true);
    setpgid(pid, pid);  // also here, so that the group exists before the caller signals it
    return pid;
}

int wait_bounded(pid_t pid, double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int st = 0;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Result output_of(const fs::path& cwd, int status) {
    Result r;
    r.status = status;
    r.out = slurp(cwd.parent_path() / (cwd.filename().string() + ".out"));
    r.err = slurp(cwd.parent_path() / (cwd.filename().string() + ".err"));
    return r;
}

TempDir::TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("memwall-test-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
    fs::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
    fs::remove(path.parent_path() / (path.filename().string() + ".out"), ec);
    fs::remove(path.parent_path() / (path.filename().string() + ".err"), ec);
}

std::vector<std::pair<std::string, std::string>> snapshot(const fs::path& dir) {
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& e : fs::directory_iterator(dir)) files.emplace_back(e.path().filename().string(), slurp(e.path()));
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);) out.push_back(l);
    return out;
}

}  // namespace memwall::test
