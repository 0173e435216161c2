#include "gui/core/results_reader.hpp"

#include <limits>
#include <map>

#include "harness/errors.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall::gui {

ResultsReader::ResultsReader(const std::string& path) : store_(Store::open(path, Store::Mode::read_only)) {}

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
    std::map<std::int64_t, std::vector<Counter>> counters;
    Statement ct(db,
                 "SELECT k.case_id, k.name, k.value, k.unit, k.source FROM counters k "
                 "JOIN cases c ON c.id = k.case_id "
                 "WHERE k.case_id BETWEEN ?1 AND ?2 AND +c.run_id = ?3 ORDER BY k.case_id");
    ct.bind(1, rows.front().id).bind(2, rows.back().id).bind(3, run);
    while (ct.step()) {
        const std::string source = ct.text(4);
        const auto parsed = counter_source_from(source);
        if (!parsed) throw InputError(store_.path() + ": unknown counter source '" + source + "'");
        counters[ct.int64(0)].push_back(Counter{ct.text(1), ct.real(2), ct.text(3), *parsed});
    }
    static const std::vector<Counter> none;
    for (CaseRow& c : rows) {
        const auto it = counters.find(c.id);
        complete_case_row(c, it == counters.end() ? none : it->second, ceilings);
    }
    return rows;
}

}  // namespace memwall::gui
