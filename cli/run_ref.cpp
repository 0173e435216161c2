#include "cli/run_ref.hpp"

#include <charconv>

#include "core/errors.hpp"

namespace memwall::cli {

std::int64_t resolve_run(const Store& store, const std::string& ref) {
    if (ref == "latest") {
        auto r = store.latest_run();
        if (!r) throw UsageError(store.path() + " has no runs");
        return r->id;
    }
    if (auto eq = ref.find('='); eq != std::string::npos) {
        auto ids = store.runs_tagged(ref.substr(0, eq), ref.substr(eq + 1));
        if (ids.empty()) throw UsageError("no run tagged " + ref + " in " + store.path());
        return ids.back();
    }
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(ref.data(), ref.data() + ref.size(), id);
    if (ec != std::errc{} || end != ref.data() + ref.size())
        throw UsageError("'" + ref + "' names no run: use an id, 'latest' or a tag key=value");
    if (!store.run(id)) throw UsageError("no run " + ref + " in " + store.path());
    return id;
}

std::int64_t resolve_run_with_cases(const Store& store, const std::string& ref) {
    const std::int64_t id = resolve_run(store, ref);
    if (store.case_count(id) == 0)
        throw UsageError("run " + std::to_string(id) + " of " + store.path() + " ('" + ref + "') has no cases");
    return id;
}

}  // namespace memwall::cli
