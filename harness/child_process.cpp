#include "harness/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace memwall {

std::string describe_exit(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* abbrev = sigabbrev_np(sig);
        return "was killed by signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
    }
    return "ended with wait status " + std::to_string(status);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const ChildOptions& options) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]);
        ::close(in[1]);
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> env;
    for (char** e = environ; *e; ++e) env.push_back(*e);
    static char passive[] = "OMP_WAIT_POLICY=passive";
    if (options.passive_openmp && !std::getenv("OMP_WAIT_POLICY")) env.push_back(passive);
    env.push_back(nullptr);
    const pid_t parent = ::getpid();
    const rlimit limit{options.memory_limit, options.memory_limit};

    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid_ == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
        ::signal(SIGINT, SIG_IGN);                // kept across exec
        if (options.memory_limit) ::setrlimit(RLIMIT_DATA, &limit);
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::execve(args[0], args.data(), env.data());
        const char msg[] = "memwall: cannot start a worker process: exec failed\n";
        [[maybe_unused]] const auto n = ::write(2, msg, sizeof msg - 1);
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
    ::signal(SIGPIPE, SIG_IGN);  // a child that died is reported by the failed write instead
}

ChildProcess::~ChildProcess() {
    ::close(to_);  // end of input: a worker exits
    ::close(from_);
    if (reaped_) return;
    int status = 0;
    for (int i = 0; i < 200; ++i) {  // up to 2 s for a clean exit
        if (::waitpid(pid_, &status, WNOHANG) == pid_) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
}

void ChildProcess::send(const std::string& line) {
    const std::string out = line + "\n";
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::write(to_, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) gone();
        done += static_cast<std::size_t>(n);
    }
}

std::optional<std::string> ChildProcess::receive(std::optional<Clock::time_point> deadline) {
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        if (deadline) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
            if (left <= 0) return std::nullopt;
            pollfd p{from_, POLLIN, 0};
            const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
            if (r < 0 && errno != EINTR) gone();
            if (r <= 0) continue;
        }
        char chunk[4096];
        const ssize_t n = ::read(from_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) gone();
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::string ChildProcess::kill() {
    if (reaped_) return "had ended";
    ::kill(pid_, SIGKILL);
    return reap();
}

std::string ChildProcess::reap() {
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {}
    reaped_ = true;
    if (r != pid_) return "closed its pipe";
    if (WIFSIGNALED(status)) killed_by_ = WTERMSIG(status);
    return describe_exit(status);
}

void ChildProcess::gone() {
    if (reaped_) throw ChildGone("had ended", killed_by_);
    const std::string how = reap();
    throw ChildGone(how, killed_by_);
}

}  // namespace memwall
