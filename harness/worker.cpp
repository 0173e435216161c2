#include "harness/worker.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall {

using nlohmann::json;

namespace {

json key_json(const CaseKey& k) {
    return {{"family", k.family}, {"variant", k.variant}, {"backend", k.backend}, {"problem", k.problem},
            {"config", k.config}};
}

}  // namespace

WorkerServer::WorkerServer(Arm& arm, std::vector<CaseKey> keys, std::string git_revision, std::string version)
    : arm_(arm), keys_(std::move(keys)), revision_(std::move(git_revision)), version_(std::move(version)) {}

std::string WorkerServer::hello() const {
    std::string s = "memwall-worker 1 " + std::to_string(keys_.size()) + " " + (revision_.empty() ? "-" : revision_) +
                    " " + (version_.empty() ? "-" : version_) + "\n";
    for (const CaseKey& k : keys_) s += key_json(k).dump() + "\n";
    return s;
}

std::string WorkerServer::handle(const std::string& request) {
    if (request == "quit") return "";
    if (request == "sample") {
        if (!prepared_) return "error no case is prepared";
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", arm_.sample());
        return buf;
    }
    std::istringstream in(request);
    std::string verb;
    std::size_t index = 0;
    if (in >> verb >> index && verb == "prepare" && in.eof() && index < keys_.size()) {
        const CaseRecord r = arm_.prepare(index);
        prepared_ = r.status == CaseStatus::ok;
        json counters = json::array();
        for (const Counter& c : r.counters)
            counters.push_back({c.name, c.value, c.unit, std::string(to_string(c.source))});
        return json{{"status", std::string(to_string(r.status))}, {"message", r.message}, {"counters", counters}}
            .dump();
    }
    return "error bad request: " + request;
}

WorkerArm::WorkerArm(std::unique_ptr<WorkerChannel> channel) : channel_(std::move(channel)) {
    std::string greeting;
    try {
        greeting = channel_->receive();
    } catch (const InputError& e) {
        throw InputError(std::string("the baseline build did not answer as a memwall measure-worker: ") + e.what());
    }
    std::istringstream hello(greeting);
    std::string magic;
    int protocol = 0;
    std::size_t count = 0;
    if (!(hello >> magic >> protocol >> count >> revision_ >> version_) || magic != "memwall-worker")
        throw InputError("the baseline build did not answer as a memwall measure-worker (an older build?)");
    if (protocol != 1)
        throw InputError("the baseline build speaks worker protocol " + std::to_string(protocol) + ", not 1");
    if (revision_ == "-") revision_.clear();
    if (version_ == "-") version_.clear();
    for (std::size_t i = 0; i < count; ++i) {
        try {
            const json k = json::parse(channel_->receive());
            cases_.push_back({k.at("family"), k.at("variant"), k.at("backend"), k.at("problem"), k.at("config")});
        } catch (const json::exception& e) {
            throw InputError(std::string("the baseline build sent a malformed case: ") + e.what());
        }
    }
    for (std::size_t i = 0; i < count; ++i) order_.push_back(i);
}

CaseRecord WorkerArm::prepare(std::size_t index) {
    const std::size_t theirs = order_.at(index);
    channel_->send("prepare " + std::to_string(theirs));
    const std::string reply = channel_->receive();
    CaseRecord r;
    r.key = cases_.at(theirs);
    try {
        const json j = json::parse(reply);
        const auto status = case_status_from(j.at("status").get<std::string>());
        if (!status) throw InputError("unknown status " + j.at("status").dump());
        r.status = *status;
        r.message = j.at("message");
        for (const auto& c : j.at("counters")) {
            const auto source = counter_source_from(c.at(3).get<std::string>());
            r.counters.push_back({c.at(0), c.at(1), c.at(2), source.value_or(CounterSource::model)});
        }
    } catch (const json::exception&) {
        throw InputError("the baseline build's worker answered 'prepare' with: " + reply);
    }
    return r;
}

double WorkerArm::sample() {
    channel_->send("sample");
    const std::string reply = channel_->receive();
    char* end = nullptr;
    const double s = std::strtod(reply.c_str(), &end);
    if (reply.empty() || *end != '\0' || !(s >= 0))
        throw InputError("the baseline build's worker answered 'sample' with: " + reply);
    return s;
}

namespace {

class PipeChannel : public WorkerChannel {
public:
    PipeChannel(pid_t pid, int to, int from, std::string name)
        : pid_(pid), to_(to), from_(from), name_(std::move(name)) {}
    ~PipeChannel() override {
        ::close(to_);  // end of input: the worker exits
        ::close(from_);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    void send(const std::string& line) override {
        const std::string out = line + "\n";
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = ::write(to_, out.data() + done, out.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) gone();
            done += static_cast<std::size_t>(n);
        }
    }
    std::string receive() override {
        for (;;) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            char chunk[4096];
            const ssize_t n = ::read(from_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) gone();
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

private:
    [[noreturn]] void gone() {
        int status = 0;
        std::string how = "closed its pipe";
        if (::waitpid(pid_, &status, 0) == pid_) {
            how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                    : "was killed by signal " + std::to_string(WTERMSIG(status));
        }
        throw InputError(name_ + " " + how);
    }
    pid_t pid_;
    int to_, from_;
    std::string name_, buffer_;
};

}  // namespace

std::unique_ptr<WorkerChannel> start_worker(const std::vector<std::string>& argv) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> env;
    for (char** e = environ; *e; ++e) env.push_back(*e);
    static char passive[] = "OMP_WAIT_POLICY=passive";
    if (!std::getenv("OMP_WAIT_POLICY")) env.push_back(passive);
    env.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        ::signal(SIGINT, SIG_IGN);  // kept across exec: Ctrl-C is the coordinator's to handle
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::execve(args[0], args.data(), env.data());
        std::fprintf(stderr, "memwall: cannot run %s: %s\n", args[0], std::strerror(errno));
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    ::signal(SIGPIPE, SIG_IGN);  // a worker that died is reported by the failed write instead
    return std::make_unique<PipeChannel>(pid, in[1], out[0], "the worker " + argv.at(0));
}

}  // namespace memwall
