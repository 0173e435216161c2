#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"
#include "cli/sbatch_script.hpp"
#include "cli/suite_run_args.hpp"
#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "harness/suite.hpp"

namespace memwall::cli {

namespace {

namespace fs = std::filesystem;

struct SlurmArgs {
    std::size_t shards = 0;
    std::string results;
    std::string memwall;
    std::string job_name = "memwall";
    int gpus_per_task = 0;
    std::vector<std::string> sbatch;
    bool submit = false;
    std::string suite;                 // a suite file, instead of the command
    std::vector<std::string> command;  // after --: run and its sweep arguments
};

// Whether the run's arguments choose the cuda backend (-b cuda, --backend=cpu,cuda, ...).
bool asks_for_cuda(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string value;
        const std::string& a = args[i];
        if ((a == "-b" || a == "--backend") && i + 1 < args.size()) value = args[i + 1];
        if (a.rfind("--backend=", 0) == 0) value = a.substr(10);
        for (std::size_t at = 0; at <= value.size();) {
            const std::size_t comma = std::min(value.find(',', at), value.size());
            if (value.substr(at, comma - at) == "cuda") return true;
            at = comma + 1;
        }
    }
    return false;
}

// The job id sbatch --parsable printed ("id" or "id;cluster").
std::string submit(const std::string& script, const std::string& dependency) {
    std::string command = "sbatch --parsable";
    if (!dependency.empty()) command += " --dependency=afterany:" + dependency;
    command += " " + shell_quoted(script) + " 2>&1";
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) throw EnvironmentError("cannot run sbatch");
    std::string out;
    std::array<char, 256> buf{};
    while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
    const int status = ::pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    if (status != 0 || out.empty() || out.find_first_not_of("0123456789;") != std::string::npos ||
        out.find_first_of("0123456789") != 0)
        throw EnvironmentError("sbatch " + script + " failed: " + (out.empty() ? "no output" : out));
    return out.substr(0, out.find(';'));
}

void slurm_command(SlurmArgs a) {
    if (!a.suite.empty()) {
        if (!a.command.empty())
            throw UsageError("give the sweep as --suite FILE or as `-- run ARGUMENTS...`, not both");
        a.command = suite_run_args(load_suite(a.suite));
    } else if (a.command.empty() || a.command.front() != "run") {
        throw UsageError(
            "memwall slurm takes the sweep as `-- run ARGUMENTS...` after its own options, or --suite FILE");
    } else {
        a.command.erase(a.command.begin());
    }
    for (const std::string& arg : a.command)
        for (const char* own : {"--db", "--shard", "--resume"})
            if (arg == own || arg.rfind(std::string(own) + "=", 0) == 0)
                throw UsageError(std::string(own) +
                                 " is set by each array task; leave it out of the sweep's arguments");
    if (a.gpus_per_task == 0 && asks_for_cuda(a.command)) a.gpus_per_task = 1;

    SlurmJob job;
    std::error_code ec;
    job.memwall =
        a.memwall.empty() ? fs::read_symlink("/proc/self/exe", ec).string() : fs::absolute(a.memwall).string();
    if (job.memwall.empty()) throw EnvironmentError("cannot tell where this memwall is; give --memwall PATH");
    job.run_args = a.command;
    job.shards = a.shards;
    job.results = fs::absolute(a.results).lexically_normal().string();
    while (job.results.size() > 1 && job.results.back() == '/') job.results.pop_back();
    job.job_name = a.job_name;
    job.gpus_per_task = a.gpus_per_task;
    job.sbatch = a.sbatch;

    fs::create_directories(job.results + "/logs", ec);
    if (ec) throw EnvironmentError("cannot create " + job.results + "/logs: " + ec.message());
    const std::string array = job.results + "/memwall-array.sbatch", merge = job.results + "/memwall-merge.sbatch";
    for (const auto& [path, text] : {std::pair{array, array_script(job)}, {merge, merge_script(job)}}) {
        OutputFile f(path);
        f.stream() << text;
        f.commit();
    }
    std::cout << "wrote " << array << " (" << job.shards << " array tasks) and " << merge << "\n";
    if (!a.submit) {
        std::cout << "submit with: merge_job=$(sbatch --parsable --dependency=afterany:$(sbatch --parsable " << array
                  << ") " << merge << ")\n";
        return;
    }
    const std::string array_id = submit(array, "");
    const std::string merge_id = submit(merge, array_id);
    std::cout << "submitted array job " << array_id << " and merge job " << merge_id << "; the merged database will be "
              << job.results << "/merged.db\n";
}

}  // namespace

void add_slurm_command(CLI::App& app, Context&) {
    auto* cmd = app.add_subcommand("slurm",
                                   "write (and with --submit, submit) a Slurm array job measuring a sweep in shards, "
                                   "and a job that merges them: memwall slurm --shards N --results DIR -- run ...");
    auto a = std::make_shared<SlurmArgs>();
    cmd->add_option("--shards", a->shards, "array tasks, each measuring one shard of the sweep")
        ->required()
        ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
    cmd->add_option("--results", a->results,
                    "a directory every node can reach: the scripts, logs, each shard's database, merged.db")
        ->required();
    cmd->add_option("--gpus-per-task", a->gpus_per_task, "GPUs per array task (default: 1 for a cuda sweep, else none)")
        ->check(CLI::Range(0, 1024));
    cmd->add_option("--job-name", a->job_name, "the array job's name (the merge job's adds -merge)");
    cmd->add_option("--sbatch", a->sbatch, "another #SBATCH option for both jobs, e.g. --sbatch=--partition=gpu");
    cmd->add_option("--memwall", a->memwall, "the memwall the tasks run (default: this one)");
    cmd->add_flag("--submit", a->submit, "submit both jobs with sbatch (the merge job after the array's tasks end)");
    cmd->add_option("--suite", a->suite, "a suite file's sweep, repetitions and name (as memwall ci runs it)");
    cmd->add_option("command", a->command, "after --: run and the sweep's arguments");
    cmd->callback([a] { slurm_command(*a); });
}

}  // namespace memwall::cli
