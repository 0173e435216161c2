// The worker commands, not meant to be typed (hidden from help): measure-worker, one build's
// side of `memwall ci --baseline-build`, serving the cases of a suite over stdin/stdout
// (ci/measure_worker.hpp); case-worker, measuring isolated cases (harness/case_worker.hpp).
#include <unistd.h>

#include <iostream>
#include <string>

#include "ci/measure_worker.hpp"
#include "cli/app.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "harness/case_worker.hpp"
#include "harness/suite.hpp"

namespace memwall::cli {

namespace {

void worker_command(const std::string& suite_path, const std::string& scale, Context& ctx) {
    const Suite suite = load_suite(suite_path);
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, ctx.catalogue);
    std::vector<CaseKey> keys;
    for (const PlannedCase& c : cases) keys.push_back(key_of(c));
    MeasureOptions opt;
    opt.sampler = suite.sweep.sampler;
    LocalArm arm(cases, suite.sweep.seed, detect_memory_hierarchy(), opt,
                 scale.empty() ? ProblemScale{} : ProblemScale::parse(scale));
    WorkerServer server(arm, std::move(keys), memwall_git_revision(), memwall_version());
    std::cout << server.hello() << std::flush;
    for (std::string line; std::getline(std::cin, line);) {
        const std::string reply = server.handle(line);
        if (reply.empty()) break;
        std::cout << reply << '\n' << std::flush;
    }
}

void case_worker_command(Context& ctx) {
    // Replies go to a copy of stdout; stdout itself becomes stderr, so a kernel that prints
    // cannot garble the protocol.
    const int replies = ::dup(STDOUT_FILENO);
    if (replies < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        throw InputError("case-worker: cannot set up its output");
    serve_cases(std::cin, replies, ctx.catalogue, detect_memory_hierarchy());
}

}  // namespace

void add_worker_command(CLI::App& app, Context& ctx) {
    auto* cases = app.add_subcommand("case-worker", "measure cases sent on stdin, one per line, in this process");
    cases->group("");  // internal
    cases->callback([&ctx] { case_worker_command(ctx); });

    auto* cmd = app.add_subcommand("measure-worker", "serve a suite's cases to memwall ci --baseline-build");
    cmd->group("");  // internal
    auto suite = std::make_shared<std::string>();
    auto scale = std::make_shared<std::string>();
    cmd->add_option("--suite", *suite, "the suite file")->required();
    cmd->add_option("--scale", *scale,
                    "test only: AXIS=FACTOR, measure every case with that integer axis scaled (more real work "
                    "under the same key: the slowdowns bench_regression_false_alarms injects)");
    cmd->callback([suite, scale, &ctx] { worker_command(*suite, *scale, ctx); });
}

}  // namespace memwall::cli
