// memwall_tune_eval_tool FILE...: tune-eval over recorded spaces, printed as text. The library
// function behind it (tune_eval) is what `memwall tune-eval` calls.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "harness/errors.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tune_eval.hpp"

int main(int argc, char** argv) {
    using namespace memwall;
    CLI::App app{"Replays search strategies over recorded tuning spaces and scores them"};
    std::vector<std::string> files;
    std::vector<std::string> strategies = strategy_names();
    TuneEvalOptions options;
    app.add_option("files", files, "Kernel Tuner cache or KTT JSON files (.json, .json.gz)")->required();
    app.add_option("--strategy", strategies, "strategies to compare")->delimiter(',');
    app.add_option("--seeds", options.seeds, "seeds per strategy and space");
    app.add_option("--max-evaluations", options.max_evaluations, "evaluations per run at most (0: until the optimum)");
    app.add_option("--threads", options.threads, "threads (0: all)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        std::vector<RecordedSpace> spaces;
        for (const auto& f : files) {
            spaces.push_back(load_recorded_space(f));
            for (const auto& note : spaces.back().notes) std::cerr << f << ": " << note << "\n";
        }
        std::vector<const RecordedSpace*> ptrs;
        for (const auto& s : spaces) ptrs.push_back(&s);
        std::cout << render_tune_eval(tune_eval(ptrs, strategies, options));
    } catch (const UsageError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    } catch (const InputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
