#include "gui/core/results_reader.hpp"

namespace memwall::gui {

ResultsReader::ResultsReader(const std::string& path) : store_(Store::open(path, Store::Mode::read_only)) {}

std::unordered_map<std::int64_t, std::vector<Counter>> ResultsReader::counters(std::int64_t run) const {
    return store_.run_counters(run);
}

std::unordered_map<std::int64_t, Repetitions> ResultsReader::samples(std::int64_t run) const {
    return store_.run_samples(run);
}

std::vector<RunRow> ResultsReader::runs() const {
    std::vector<RunRow> out;
    for (RunInfo& info : store_.runs()) {
        RunRow r;
        r.ceilings = store_.ceilings(info.id);
        r.cases = store_.case_count(info.id);
        r.info = std::move(info);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<CaseRow> ResultsReader::cases(std::int64_t run, const Ceilings& ceilings, std::int64_t after_id,
                                          std::size_t limit) const {
    std::vector<CaseRow> rows;
    const auto info = store_.run(run);
    const std::vector<RunAxis> axes = info ? info->axes : std::vector<RunAxis>{};
    for (const CaseRecord& c : store_.case_page(run, after_id, limit)) {
        CaseRow r;
        r.id = c.id;
        r.run_id = run;
        r.key = c.key;
        r.status = c.status;
        r.message = QString::fromStdString(c.message);
        r.n_samples = c.summary.n;
        r.median = c.summary.median;
        r.min = c.summary.min;
        r.q1 = c.summary.q1;
        r.q3 = c.summary.q3;
        r.sampling_stop = c.sampling_stop;
        complete_case_row(r, c.counters, ceilings, axes);
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace memwall::gui
