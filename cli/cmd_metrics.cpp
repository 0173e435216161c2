// memwall metrics: what CUPTI's profiler host API says without a GPU: the chips it supports, a
// chip's base metrics, and for a metric list whether each name is a metric of the chip and how
// many replay passes collecting them takes.
#include <iostream>
#include <memory>

#include "cli/app.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "profiler/cupti_host.hpp"

namespace memwall::cli {

namespace {

struct MetricsArgs {
    std::string chip;
    bool list = false;
    std::vector<std::string> metrics;
};

// CUPTI's refusals as memwall's: a name it does not know is the user's, a CUPTI it cannot load
// the machine's.
template <class F>
auto cupti_call(F&& f) {
    try {
        return f();
    } catch (const cupti::Unavailable& e) {
        throw EnvironmentError(e.what());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

void print_chips() {
    const std::vector<std::string> chips = cupti_call([] { return cupti::supported_chips(); });
    std::cout << "chips CUPTI's profiler supports (" << chips.size() << "):";
    for (const std::string& c : chips) std::cout << ' ' << c;
    std::cout << "\n(memwall metrics --chip NAME --list: its base metrics; --metrics a,b: check a list)\n";
}

void print_base_metrics(const cupti::ChipMetrics& chip) {
    Table t({"metric", "type", "unit", "description"});
    for (const auto& [name, type] : chip.base_metrics()) {
        const auto p = chip.properties(name);
        t.add({name, type, p ? p->dim_unit : "", p ? p->description : ""});
    }
    t.print(std::cout);
}

// One line per name that is not a metric of the chip (status 2), else the configuration.
int check_metrics(const cupti::ChipMetrics& chip, const std::vector<std::string>& metrics) {
    int bad = 0;
    for (const std::string& m : metrics)
        if (!chip.properties(m)) {
            std::cerr << "memwall: error: '" << m << "' is not a metric of " << chip.chip()
                      << " (memwall metrics --chip " << chip.chip() << " --list shows the base metrics; a metric "
                      << "is a base metric with a rollup such as .sum, .avg, .max)\n";
            ++bad;
        }
    if (bad > 0) return 2;
    const cupti::MetricConfig c = chip.configure(metrics);
    std::cout << chip.chip() << ", range profiler: " << metrics.size() << (metrics.size() == 1 ? " metric" : " metrics")
              << " in " << c.passes << (c.passes == 1 ? " replay pass" : " replay passes") << " (config image "
              << c.image.size() << " bytes)\n";
    Table t({"metric", "type", "unit", "description"});
    for (const std::string& m : metrics) {
        const auto p = chip.properties(m);
        t.add({m, p->type, p->dim_unit, p->description});
    }
    t.print(std::cout);
    return 0;
}

}  // namespace

void add_metrics_command(CLI::App& app, Context& ctx) {
    auto args = std::make_shared<MetricsArgs>();
    auto* cmd = app.add_subcommand("metrics",
                                   "CUPTI's metrics without a GPU: the chips it supports, a chip's base "
                                   "metrics, and how many replay passes a metric list needs");
    cmd->add_option("--chip", args->chip, "a chip CUPTI knows (e.g. GH100, GA100, AD102); without it: the chips");
    cmd->add_flag("--list", args->list, "the chip's base metrics, with their type, unit and description");
    cmd->add_option("--metrics", args->metrics,
                    "metrics to check and configure (a,b,c; default with --chip: what the cuda backend collects)")
        ->delimiter(',');
    cmd->callback([&ctx, args] {
        if (args->chip.empty()) {
            if (args->list || !args->metrics.empty())
                throw UsageError("--list and --metrics need --chip (no GPU is asked: CUPTI's host API works offline)");
            print_chips();
            return;
        }
        const auto chip = cupti_call([&] { return std::make_unique<cupti::ChipMetrics>(args->chip); });
        if (args->list) {
            cupti_call([&] {
                print_base_metrics(*chip);
                return 0;
            });
            return;
        }
        const std::vector<std::string>& metrics = args->metrics.empty() ? cupti::default_metrics() : args->metrics;
        ctx.exit_status = cupti_call([&] { return check_metrics(*chip, metrics); });
    });
}

}  // namespace memwall::cli
