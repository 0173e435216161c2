#include <iostream>

#include "cli/app.hpp"
#include "results/merge.hpp"

namespace memwall::cli {

void add_merge_command(CLI::App& app, Context&) {
    auto* cmd = app.add_subcommand("merge",
                                   "merge memwall databases (a split sweep's shards, or any others) into OUT: a "
                                   "sweep's shards on one device become one run; merging again adds nothing");
    auto out = std::make_shared<std::string>();
    auto sources = std::make_shared<std::vector<std::string>>();
    cmd->add_option("OUT", *out, "the merged database (created when missing)")->required();
    cmd->add_option("SOURCE", *sources, "databases to merge into it")->required();
    cmd->callback([out, sources] {
        const MergeResult r = merge_databases(*out, *sources);
        for (const MergedRun& m : r.runs) {
            std::cout << "run " << m.id << " in " << *out << ": " << m.added << " case(s) added";
            if (m.present) std::cout << ", " << m.present << " already there";
            if (!m.shards.empty()) std::cout << "; " << m.shards;
            std::cout << " (" << m.device << ")\n";
        }
        for (const std::string& n : r.notes) std::cout << n << "\n";
    });
}

}  // namespace memwall::cli
