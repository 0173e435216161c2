#include "gui/core/results_reader.hpp"

#include <limits>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall::gui {

ResultsReader::ResultsReader(const std::string& path) : store_(Store::open(path, Store::Mode::read_only)) {}

std::pair<std::int64_t, std::int64_t> ResultsReader::id_range(std::int64_t run) const {
    Statement st(store_.handle(), "SELECT coalesce(min(id), 0), coalesce(max(id), -1) FROM cases WHERE run_id = ?1");
    st.bind(1, run);
    st.step();
    return {st.int64(0), st.int64(1)};
}

std::unordered_map<std::int64_t, std::vector<Counter>> ResultsReader::counters_between(std::int64_t run, std::int64_t lo,
                                                                                        std::int64_t hi) const {
    std::unordered_map<std::int64_t, std::vector<Counter>> out;
    // `+c.run_id` keeps SQLite on the primary key's range rather than the run's index.
    Statement ct(store_.handle(),
                 "SELECT k.case_id, k.name, k.value, k.unit, k.source FROM counters k "
                 "JOIN cases c ON c.id = k.case_id "
                 "WHERE k.case_id BETWEEN ?1 AND ?2 AND +c.run_id = ?3 ORDER BY k.case_id");
    ct.bind(1, lo).bind(2, hi).bind(3, run);
    while (ct.step()) {
        const std::string source = ct.text(4);
        const auto parsed = counter_source_from(source);
        if (!parsed) throw InputError(store_.path() + ": unknown counter source '" + source + "'");
        out[ct.int64(0)].push_back(Counter{ct.text(1), ct.real(2), ct.text(3), *parsed});
    }
    return out;
}

std::unordered_map<std::int64_t, std::vector<Counter>> ResultsReader::counters(std::int64_t run) const {
    const auto [lo, hi] = id_range(run);
    return counters_between(run, lo, hi);
}

std::unordered_map<std::int64_t, Repetitions> ResultsReader::samples(std::int64_t run) const {
    const auto [lo, hi] = id_range(run);
    std::unordered_map<std::int64_t, Repetitions> out;
    Statement st(store_.handle(),
                 "SELECT s.case_id, s.rep, s.seconds FROM samples s JOIN cases c ON c.id = s.case_id "
                 "WHERE s.case_id BETWEEN ?1 AND ?2 AND +c.run_id = ?3 ORDER BY s.case_id, s.rep, s.idx");
    st.bind(1, lo).bind(2, hi).bind(3, run);
    std::int64_t current = -1;
    Repetitions* reps = nullptr;
    while (st.step()) {
        const std::int64_t id = st.int64(0);
        if (id != current) {
            current = id;
            reps = &out[id];
        }
        const auto rep = static_cast<std::size_t>(st.int64(1));
        if (reps->size() <= rep) reps->resize(rep + 1);
        (*reps)[rep].push_back(st.real(2));
    }
    return out;
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
    sqlite3* db = store_.handle();
    const auto max_rows = limit == 0 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(limit);
    // `+run_id` keeps SQLite off the (run_id, ...) index, which would read and sort the whole
    // run for every page; the rowid range scan reads only the page.
    Statement st(db,
                 "SELECT id, family, variant, backend, problem, config, status, message, n_samples, "
                 "time_median, time_min, time_q1, time_q3 FROM cases WHERE +run_id = ?1 AND id > ?2 "
                 "ORDER BY id LIMIT ?3");
    st.bind(1, run).bind(2, after_id).bind(3, max_rows);
    std::vector<CaseRow> rows;
    while (st.step()) {
        CaseRow c;
        c.id = st.int64(0);
        c.run_id = run;
        c.key = CaseKey{st.text(1), st.text(2), st.text(3), st.text(4), st.text(5)};
        const std::string status = st.text(6);
        const auto parsed = case_status_from(status);
        if (!parsed) throw InputError(store_.path() + ": unknown case status '" + status + "'");
        c.status = *parsed;
        c.message = QString::fromStdString(st.text(7));
        c.n_samples = static_cast<std::size_t>(st.int64(8));
        c.median = st.real(9);
        c.min = st.real(10);
        c.q1 = st.real(11);
        c.q3 = st.real(12);
        rows.push_back(std::move(c));
    }
    if (rows.empty()) return rows;

    // Counters of the page's cases: the primary key (case_id, ...) makes this a range scan.
    const auto counters = counters_between(run, rows.front().id, rows.back().id);
    static const std::vector<Counter> none;
    for (CaseRow& c : rows) {
        const auto it = counters.find(c.id);
        complete_case_row(c, it == counters.end() ? none : it->second, ceilings);
    }
    return rows;
}

}  // namespace memwall::gui
