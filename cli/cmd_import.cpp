#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/app.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "harness/run_session.hpp"
#include "results/import.hpp"

namespace memwall::cli {

namespace {

struct ImportArgs {
    std::string file;
    std::string format;
    std::vector<std::string> tags;
};

std::string read_whole(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw EnvironmentError(path + ": is a directory, not a results file");
    refuse_special_file(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

void add_import_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("import",
                                   "store another harness's results as a run (Google Benchmark JSON, as `run "
                                   "--benchmark_out` writes it, or nvbench JSON), tagged imported and unchecked");
    auto a = std::make_shared<ImportArgs>();
    cmd->add_option("file", a->file, "the JSON file")->required();
    cmd->add_option("--format", a->format, "gbench or nvbench")
        ->required()
        ->check(CLI::IsMember({"gbench", "nvbench"}));
    cmd->add_option("--tag", a->tags, "tag the run: key=value (e.g. branch=main); repeatable");
    cmd->callback([&ctx, a] {
        std::map<std::string, std::string> tags = parse_tags(a->tags);
        ImportedRun imported = parse_import(*import_format_from(a->format), read_whole(a->file), a->file);
        const Provenance who = Provenance::here(ctx.command_line);
        imported.run.command_line = who.command_line;
        imported.run.memwall_version = who.memwall_version;
        for (auto& [k, v] : tags) imported.run.tags[k] = v;
        Store store = Store::open(ctx.db_path, Store::Mode::create);
        const std::int64_t id = store_imported_run(store, imported);
        std::cout << "run " << id << " in " << ctx.db_path << ": " << imported.cases.size() << " cases imported from "
                  << a->file << " (" << a->format << "), not checked against a reference\n";
    });
}

}  // namespace memwall::cli
