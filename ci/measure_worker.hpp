// An arm in another process: `memwall measure-worker --suite FILE` serves its build's cases of
// a suite over stdin/stdout, one line per request and per reply, so that `memwall ci
// --baseline-build` can time two builds in pairs (measure_paired). The protocol, version 1:
//   worker:  memwall-worker 1 <cases> <git revision or -> <version>   then one line per case:
//            its key as JSON {"family","variant","backend","problem","config"}
//   request: prepare <index>  reply: {"status","message","counters":[[name,value,unit,source]]}
//   request: sample           reply: <seconds>  (or "error <message>" when nothing is prepared)
//   request: quit, or end of input: the worker exits 0.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ci/measure_paired.hpp"

namespace memwall {

// The worker's side: answers requests with `arm`.
class WorkerServer {
  public:
    WorkerServer(Arm& arm, std::vector<CaseKey> keys, std::string git_revision, std::string version);
    // The greeting and the case lines, each ending in '\n'.
    std::string hello() const;
    // The reply to one request line (without '\n'); empty for quit.
    std::string handle(const std::string& request);

  private:
    Arm& arm_;
    std::vector<CaseKey> keys_;
    std::string revision_, version_;
    bool prepared_ = false;
};

// A line-based connection to a worker: send a request, read its reply.
class WorkerChannel {
  public:
    virtual ~WorkerChannel() = default;
    virtual void send(const std::string& line) = 0;
    // Throws InputError when the worker has gone (its exit is part of the message).
    virtual std::string receive() = 0;
};

// The other side: an Arm backed by a worker. Its cases are the worker's, re-indexed by
// `order`: index i of this arm is the worker's case order[i].
class WorkerArm : public Arm {
  public:
    // Reads the greeting; throws InputError when it is not a memwall worker of protocol 1.
    // `side` names the build in messages ("the baseline build").
    WorkerArm(std::unique_ptr<WorkerChannel> channel, std::string side);
    const std::vector<CaseKey>& worker_cases() const { return cases_; }
    const std::string& git_revision() const { return revision_; }
    const std::string& version() const { return version_; }
    void set_order(std::vector<std::size_t> order) { order_ = std::move(order); }

    CaseRecord prepare(std::size_t index) override;
    double sample() override;

  private:
    std::unique_ptr<WorkerChannel> channel_;
    std::vector<CaseKey> cases_;
    std::vector<std::size_t> order_;
    std::string side_, revision_, version_;
};

// A worker process started from `argv` (argv[0] a path), with pipes to its stdin and stdout
// (harness/child_process.hpp); `name` says which in messages ("the baseline build's worker").
// Unless the environment says otherwise, it runs with OMP_WAIT_POLICY=passive: two workers
// share the cores, and a worker's OpenMP threads spinning idle after its sample (libgomp's
// default, for milliseconds) would steal them from the other's sample (measured: flash 55%
// slower and intervals of ±15% instead of ±2%).
std::unique_ptr<WorkerChannel> start_worker(const std::vector<std::string>& argv, const std::string& name);

}  // namespace memwall
