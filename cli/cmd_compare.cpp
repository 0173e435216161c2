#include <iostream>

#include "cli/app.hpp"
#include "cli/compare_output.hpp"
#include "cli/run_source.hpp"

namespace memwall::cli {

namespace {

struct CompareArgs {
    std::string base, candidate = "latest";
    CompareOptions options;
    std::string format = "console";
    std::string report_dir;
    bool allow_empty = false, allow_unchecked = false;
};

}  // namespace

void add_compare_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand(
        "compare",
        "compare two runs case by case: ratio of medians with a bootstrap interval, Mann-Whitney U, and a "
        "verdict SAME / FASTER / SLOWER / UNSURE; exit status 1 when a case is slower or broken");
    auto a = std::make_shared<CompareArgs>();
    const std::string run_help =
        "a run id, 'latest' or a tag key=value in --db; a database file (its latest run); or FILE:RUN";
    cmd->add_option("base", a->base, "the base run: " + run_help)->required();
    cmd->add_option("candidate", a->candidate, "the candidate run (default: latest)");
    cmd->add_option("--threshold", a->options.threshold, "minimum change that counts, as a fraction (default 0.05)");
    cmd->add_option("--alpha", a->options.alpha,
                    "significance level; intervals have confidence 1 - alpha (default 0.05)");
    cmd->add_flag("--cross-device", a->options.cross_device,
                  "compare runs of different devices or backends, each case normalised by its run's roofline");
    cmd->add_option("--format", a->format, "console, markdown, json or junit (default: console)")
        ->check(CLI::IsMember({"console", "markdown", "json", "junit"}));
    cmd->add_option("--report-dir", a->report_dir, "also write report.md, report.json and report.junit.xml here");
    cmd->add_flag("--allow-empty", a->allow_empty,
                  "accept runs that share no case (else exit status 2: a comparison of nothing proves nothing)");
    cmd->add_flag("--allow-unchecked", a->allow_unchecked,
                  "compare cases no reference checked (else exit status 2: a fast wrong result is no result)");
    cmd->callback([a, &ctx] {
        a->options.validate();
        const LoadedRun base = load_run_source(a->base, ctx.db_path);
        const LoadedRun candidate = load_run_source(a->candidate, ctx.db_path);
        const Comparison c = compare_runs(base, candidate, a->options);
        refuse_empty(c, a->allow_empty);
        refuse_unchecked(c, a->allow_unchecked);
        if (!a->report_dir.empty()) write_reports(c, a->report_dir);
        print_warnings(c);
        write_comparison(std::cout, c, a->format);
        ctx.exit_status = c.regression() ? 1 : 0;
    });
}

}  // namespace memwall::cli
