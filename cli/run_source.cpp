#include "cli/run_source.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "cli/run_ref.hpp"

namespace memwall::cli {

namespace {

bool is_file(const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

bool names_a_run(const std::string& s) {
    const bool id = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
    return s == "latest" || id || s.find('=') != std::string::npos;
}

}  // namespace

RunSource parse_run_source(const std::string& spec, const std::string& default_db) {
    // FILE:RUN, where FILE exists (a tag value may itself hold ':').
    for (auto colon = spec.find(':'); colon != std::string::npos; colon = spec.find(':', colon + 1)) {
        const std::string file = spec.substr(0, colon), run = spec.substr(colon + 1);
        if (is_file(file)) return {file, run.empty() ? "latest" : run};
    }
    // FILE:RUN with a missing FILE: the open then says so.
    if (auto colon = spec.find(':');
        colon != std::string::npos && spec.substr(0, colon).find('=') == std::string::npos) {
        const std::string run = spec.substr(colon + 1);
        return {spec.substr(0, colon), run.empty() ? "latest" : run};
    }
    if (names_a_run(spec)) return {default_db, spec};
    return {spec, "latest"};
}

LoadedRun load_run_source(const std::string& spec, const std::string& default_db) {
    const RunSource src = parse_run_source(spec, default_db);
    const Store store = Store::open(src.database, Store::Mode::read_only);
    return load_run(store, resolve_run(store, src.run));
}

}  // namespace memwall::cli
