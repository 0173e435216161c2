#include "ci/measure_worker.hpp"

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/text_json.hpp"
#include "harness/case_protocol.hpp"
#include "harness/child_process.hpp"
#include "harness/interrupt.hpp"

namespace memwall {

using nlohmann::json;

namespace {

json key_json(const CaseKey& k) {
    return {{"family", k.family},
            {"variant", k.variant},
            {"backend", k.backend},
            {"problem", k.problem},
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
        prepared_ = ran(r.status);
        return json{{"status", std::string(to_string(r.status))},
                    {"message", text_to_json(r.message)},  // may quote a path of any bytes
                    {"counters", counters_to_json(r.counters)}}
            .dump();
    }
    return "error bad request: " + request;
}

WorkerArm::WorkerArm(std::unique_ptr<WorkerChannel> channel, std::string side)
    : channel_(std::move(channel)), side_(std::move(side)) {
    std::string greeting;
    try {
        greeting = channel_->receive();
    } catch (const InputError& e) {
        throw InputError(side_ + " did not answer as a memwall measure-worker: " + e.what());
    }
    std::istringstream hello(greeting);
    std::string magic;
    int protocol = 0;
    std::size_t count = 0;
    if (!(hello >> magic >> protocol >> count >> revision_ >> version_) || magic != "memwall-worker")
        throw InputError(side_ + " did not answer as a memwall measure-worker (an older build?)");
    if (protocol != 1) throw InputError(side_ + " speaks worker protocol " + std::to_string(protocol) + ", not 1");
    if (revision_ == "-") revision_.clear();
    if (version_ == "-") version_.clear();
    for (std::size_t i = 0; i < count; ++i) {
        try {
            const json k = json::parse(channel_->receive());
            cases_.push_back({k.at("family"), k.at("variant"), k.at("backend"), k.at("problem"), k.at("config")});
        } catch (const json::exception& e) {
            throw InputError(side_ + " sent a malformed case: " + e.what());
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
        r.message = text_from_json(j.at("message")).value_or("");
        for (const auto& c : j.at("counters")) {
            const auto source = counter_source_from(c.at(3).get<std::string>());
            r.counters.push_back({c.at(0), c.at(1), c.at(2), source.value_or(CounterSource::model)});
        }
    } catch (const json::exception&) {
        throw InputError(side_ + "'s worker answered 'prepare' with: " + reply);
    }
    return r;
}

double WorkerArm::sample() {
    channel_->send("sample");
    const std::string reply = channel_->receive();
    char* end = nullptr;
    const double s = std::strtod(reply.c_str(), &end);
    if (reply.empty() || *end != '\0' || !(s >= 0))
        throw InputError(side_ + "'s worker answered 'sample' with: " + reply);
    return s;
}

namespace {

class PipeChannel : public WorkerChannel {
  public:
    PipeChannel(const std::vector<std::string>& argv, std::string name)
        : child_(argv, {.passive_openmp = true}), name_(std::move(name)) {}
    void send(const std::string& line) override {
        try {
            child_.send(line);
        } catch (const ChildGone& e) {
            lost(e);
        }
    }
    std::string receive() override {
        try {
            return *child_.receive();
        } catch (const ChildGone& e) {
            lost(e);
        }
    }

  private:
    // A worker killed by an interrupt (SIGTERM to the process group) stopped the measurement; any
    // other end is the worker's failure.
    [[noreturn]] void lost(const ChildGone& e) const {
        if (is_interrupt_signal(e.signal)) {
            stop_requested = true;
            throw Interrupted("interrupted: " + name_ + " " + e.how);
        }
        throw InputError(name_ + " " + e.how);
    }

    ChildProcess child_;
    std::string name_;
};

}  // namespace

std::unique_ptr<WorkerChannel> start_worker(const std::vector<std::string>& argv, const std::string& name) {
    return std::make_unique<PipeChannel>(argv, name);
}

}  // namespace memwall
