#include "harness/isolated_measurer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "harness/case_protocol.hpp"
#include "harness/interrupt.hpp"

namespace memwall {

namespace {

using Clock = ChildProcess::Clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", s);
    return buf;
}

// A worker killed by SIGTERM or SIGHUP to the process group (timeout, Slurm, a CI runner), as it
// starts or measures: the run is being stopped, not the worker failing; whoever sent it to the
// worker alone meant the same.
[[noreturn]] void stopped_by_interrupt(const ChildGone& e, const std::string& when) {
    stop_requested = true;
    throw Interrupted("interrupted: the case worker " + e.how + " " + when);
}

}  // namespace

IsolatedMeasurer::IsolatedMeasurer(IsolationOptions options) : options_(std::move(options)) {}

void IsolatedMeasurer::ready() {
    if (worker_) return;
    const auto t0 = Clock::now();
    worker_ =
        std::make_unique<ChildProcess>(options_.worker_command, ChildOptions{.memory_limit = options_.memory_limit});
    std::optional<std::string> hello;
    try {
        hello = worker_->receive(t0 + std::chrono::seconds(60));
    } catch (const ChildGone& e) {
        worker_.reset();
        if (is_interrupt_signal(e.signal)) stopped_by_interrupt(e, "while starting");
        throw InputError("cannot start a case worker (" + options_.worker_command.at(0) + " " + e.how +
                         "); --no-isolate measures cases in this process");
    }
    if (hello != kCaseWorkerGreeting) {
        worker_.reset();
        throw InputError("cannot start a case worker: " + options_.worker_command.at(0) +
                         (hello ? " answered '" + *hello + "'" : " did not answer within 60 s"));
    }
    ++stats_.worker_starts;
    stats_.start_seconds += since(t0);
}

CaseRecord IsolatedMeasurer::measure(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) {
    CaseRecord rec;
    rec.key = key_of(c);
    ready();
    ++stats_.cases;
    const auto t0 = Clock::now();
    // Past about 3 years the deadline would overflow; such a timeout means none.
    std::optional<Clock::time_point> deadline;
    if (opt.case_timeout < 1e8)
        deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.case_timeout));
    std::string stage = "start";
    try {
        worker_->send(encode_case_request(c, seed, opt));
        for (;;) {
            const std::optional<std::string> line = worker_->receive(deadline);
            if (!line) {
                worker_->kill();
                worker_.reset();
                rec.status = CaseStatus::timeout;
                rec.message = "over the case timeout of " + seconds_text(opt.case_timeout) + " in its " + stage +
                              " stage: its process was killed";
                return rec;
            }
            if (line->rfind("stage ", 0) == 0) {
                stage = line->substr(6);
                if (opt.stage) opt.stage(stage);
                continue;
            }
            if (line->rfind("result ", 0) != 0) throw InputError("the case worker sent '" + *line + "'");
            const double worker_seconds = decode_case_result(line->substr(7), rec);
            if (options_.memory_limit && rec.message.rfind("out of memory", 0) == 0)
                rec.message += ", over the case memory limit of " + format_bytes(double(options_.memory_limit));
            stats_.case_seconds += worker_seconds;
            stats_.overhead_seconds += std::max(0.0, since(t0) - worker_seconds);
            return rec;
        }
    } catch (const ChildGone& e) {
        worker_.reset();
        if (is_interrupt_signal(e.signal)) stopped_by_interrupt(e, "in its " + stage + " stage");
        rec.status = CaseStatus::failed;
        rec.message = "its process " + e.how + " in its " + stage + " stage";
        if (e.how.find("(SIGKILL)") != std::string::npos)
            rec.message += " (out of memory? the OOM killer sends SIGKILL)";
    } catch (const InputError& e) {  // a reply this build does not understand: a bug, kept to this case
        worker_->kill();
        worker_.reset();
        rec.status = CaseStatus::failed;
        rec.message = e.what();
    }
    rec.samples.clear();
    rec.counters.clear();
    return rec;
}

std::unique_ptr<CaseMeasurer> make_measurer(const IsolationOptions& isolation, const MemoryHierarchy& mh) {
    if (!isolation.enabled()) return std::make_unique<InProcessMeasurer>(mh);
    auto m = std::make_unique<IsolatedMeasurer>(isolation);
    m->ready();  // a worker that cannot start is the command's failure, said before any case
    return m;
}

}  // namespace memwall
