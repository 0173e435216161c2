#include "ci/measure_worker.hpp"

#include <gtest/gtest.h>

#include <deque>

#include "core/errors.hpp"

using namespace memwall;

namespace {

// Case i takes (i + 1) ms; case 1 fails its check.
struct ScriptedArm : Arm {
    std::size_t current = 0;
    CaseRecord prepare(std::size_t i) override {
        current = i;
        CaseRecord r;
        r.status = i == 1 ? CaseStatus::wrong_result : CaseStatus::ok;
        r.message = i == 1 ? "rel. L2 error 0.5 (tolerance 0.0001)" : "rel. L2 error 1e-07";
        r.counters = {{"flops", 1e9 * static_cast<double>(i + 1), "FLOP", CounterSource::model}};
        return r;
    }
    double sample() override { return 1e-3 * static_cast<double>(current + 1); }
};

std::vector<CaseKey> keys() {
    return {{"attention", "naive", "cpu", R"({"heads":2})", "{}"},
            {"attention", "flash", "cpu", R"({"heads":2})", R"({"Bc":64,"Br":32})"},
            {"attention", "naive", "cpu", R"({"heads":4})", "{}"}};
}

// Replies queued line by line; receive() takes the next, or finds the worker gone.
class QueuedChannel : public WorkerChannel {
  public:
    explicit QueuedChannel(std::deque<std::string> lines = {}) : lines_(std::move(lines)) {}
    void send(const std::string&) override {}
    std::string receive() override {
        if (lines_.empty()) throw InputError("the worker closed its pipe");
        std::string l = lines_.front();
        lines_.pop_front();
        return l;
    }

  protected:
    std::deque<std::string> lines_;
};

// The worker answering in this thread: what it would write to the pipe, line by line.
class DirectChannel : public QueuedChannel {
  public:
    explicit DirectChannel(WorkerServer& server) : server_(server) {
        const std::string hello = server.hello();
        for (std::size_t at = 0, nl; (nl = hello.find('\n', at)) != std::string::npos; at = nl + 1)
            lines_.push_back(hello.substr(at, nl - at));
    }
    void send(const std::string& line) override { lines_.push_back(server_.handle(line)); }

  private:
    WorkerServer& server_;
};

}  // namespace

TEST(Worker, TheArmSeesTheWorkersCasesRecordsAndSamples) {
    ScriptedArm local;
    WorkerServer server(local, keys(), "3f2a9c1", "0.4.0");
    WorkerArm arm(std::make_unique<DirectChannel>(server), "the baseline build");
    EXPECT_EQ(arm.worker_cases(), keys());
    EXPECT_EQ(arm.git_revision(), "3f2a9c1");
    EXPECT_EQ(arm.version(), "0.4.0");

    const CaseRecord r = arm.prepare(2);
    EXPECT_EQ(r.key, keys()[2]);
    EXPECT_EQ(r.status, CaseStatus::ok);
    ASSERT_EQ(r.counters.size(), 1u);
    EXPECT_EQ(r.counters[0].name, "flops");
    EXPECT_DOUBLE_EQ(r.counters[0].value, 3e9);
    EXPECT_EQ(r.counters[0].source, CounterSource::model);
    EXPECT_DOUBLE_EQ(arm.sample(), 3e-3);  // exact through the text: %.17g

    const CaseRecord failed = arm.prepare(1);
    EXPECT_EQ(failed.status, CaseStatus::wrong_result);
    EXPECT_EQ(failed.message, "rel. L2 error 0.5 (tolerance 0.0001)");
    EXPECT_THROW(arm.sample(), InputError);  // nothing prepared: the worker says so
}

TEST(Worker, OrderMapsTheArmsIndicesToTheWorkers) {
    ScriptedArm local;
    WorkerServer server(local, keys(), "", "");
    WorkerArm arm(std::make_unique<DirectChannel>(server), "the baseline build");
    EXPECT_EQ(arm.git_revision(), "");  // "-" on the wire
    arm.set_order({2, 0});
    EXPECT_EQ(arm.prepare(0).key, keys()[2]);
    EXPECT_EQ(arm.prepare(1).key, keys()[0]);
}

TEST(Worker, TheServerRefusesBadRequests) {
    ScriptedArm local;
    WorkerServer server(local, keys(), "", "");
    EXPECT_EQ(server.handle("sample"), "error no case is prepared");
    EXPECT_EQ(server.handle("prepare 3").rfind("error bad request", 0), 0u);
    EXPECT_EQ(server.handle("prepare x").rfind("error bad request", 0), 0u);
    EXPECT_EQ(server.handle("prepare 0 1").rfind("error bad request", 0), 0u);
    EXPECT_EQ(server.handle("quit"), "");
}

TEST(Worker, AnythingButAWorkerIsRefusedWithOneLine) {
    auto make = [](std::deque<std::string> lines) {
        return WorkerArm(std::make_unique<QueuedChannel>(std::move(lines)), "the baseline build");
    };
    EXPECT_THROW(make({"usage: memwall [OPTIONS] SUBCOMMAND"}), InputError);
    EXPECT_THROW(make({"memwall-worker 2 0 - -"}), InputError);
    EXPECT_THROW(make({"memwall-worker 1 1 - -", "not json"}), InputError);
    EXPECT_THROW(make({}), InputError);  // exited before greeting
    const std::string key = R"({"family":"a","variant":"b","backend":"cpu","problem":"{}","config":"{}"})";
    WorkerArm arm = make({"memwall-worker 1 1 - -", key, "garbage", "-1"});
    EXPECT_THROW(arm.prepare(0), InputError);
    EXPECT_THROW(arm.sample(), InputError);
}
