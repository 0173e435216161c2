// The store's reads of a run's cases: whole (Store::cases), page by page with their counters
// (Store::case_page, for the explorer), and a run's samples and counters by case id; and the
// removal of the cases a resumed run measures again.
#include <limits>
#include <map>
#include <stdexcept>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"
#include "results/store.hpp"

namespace memwall {

namespace {

constexpr const char* kCaseColumns =
    "SELECT id, family, variant, backend, problem, config, status, message, measured_at, n_samples, "
    "time_median, time_min, time_max, time_mean, time_stddev, time_q1, time_q3, sampling_stop FROM cases ";

CaseRecord case_row(const Statement& st, std::int64_t run_id) {
    CaseRecord c;
    c.id = st.int64(0);
    c.run_id = run_id;
    c.key = CaseKey{st.text(1), st.text(2), st.text(3), st.text(4), st.text(5)};
    const std::string status = st.text(6);
    const auto parsed = case_status_from(status);
    if (!parsed) throw InputError("unknown case status '" + status + "' in the database");
    c.status = *parsed;
    c.message = st.text(7);
    c.measured_at = st.text(8);
    Summary& s = c.summary;
    s.n = static_cast<std::size_t>(st.int64(9));
    if (s.n > 0) {
        s.median = st.real(10);
        s.min = st.real(11);
        s.max = st.real(12);
        s.mean = st.real(13);
        s.stddev = st.real(14);
        s.q1 = st.real(15);
        s.q3 = st.real(16);
        s.iqr = s.q3 - s.q1;
        s.rsd = s.mean != 0 ? s.stddev / s.mean : 0;
    }
    c.sampling_stop = st.text(17);
    return c;
}

Counter counter_row(const Statement& st) {
    const std::string source = st.text(4);
    const auto parsed = counter_source_from(source);
    if (!parsed) throw InputError("unknown counter source '" + source + "' in the database");
    return Counter{st.text(1), st.real(2), st.text(3), *parsed};
}

// The smallest and largest case id of a run; (0, -1) when it has none.
std::pair<std::int64_t, std::int64_t> id_range(sqlite3* db, std::int64_t run) {
    Statement st(db, "SELECT coalesce(min(id), 0), coalesce(max(id), -1) FROM cases WHERE run_id = ?1");
    st.bind(1, run);
    st.step();
    return {st.int64(0), st.int64(1)};
}

// Counters of a run's cases with ids in [lo, hi]. `+c.run_id` keeps SQLite on the primary key's
// range rather than the run's index.
std::unordered_map<std::int64_t, std::vector<Counter>> counters_between(sqlite3* db, std::int64_t run, std::int64_t lo,
                                                                        std::int64_t hi) {
    std::unordered_map<std::int64_t, std::vector<Counter>> out;
    Statement st(db,
                 "SELECT k.case_id, k.name, k.value, k.unit, k.source FROM counters k JOIN cases c ON c.id = k.case_id "
                 "WHERE k.case_id BETWEEN ?1 AND ?2 AND +c.run_id = ?3 ORDER BY k.case_id, k.rowid");
    st.bind(1, lo).bind(2, hi).bind(3, run);
    while (st.step()) out[st.int64(0)].push_back(counter_row(st));
    return out;
}

}  // namespace

std::vector<CaseRecord> Store::cases(std::int64_t run_id, bool with_samples) const {
    std::vector<CaseRecord> out;
    std::map<std::int64_t, std::size_t> index;
    Statement st(db_, std::string(kCaseColumns) + "WHERE run_id = ?1 ORDER BY id");
    st.bind(1, run_id);
    while (st.step()) {
        index[st.int64(0)] = out.size();
        out.push_back(case_row(st, run_id));
    }
    Statement counters(db_,
                       "SELECT k.case_id, k.name, k.value, k.unit, k.source FROM counters k "
                       "JOIN cases c ON c.id = k.case_id WHERE c.run_id = ?1 ORDER BY k.case_id, k.rowid");
    counters.bind(1, run_id);
    // The queries join on the run's cases, so every id is in `index` unless the file is damaged.
    auto case_at = [&](std::int64_t id) -> CaseRecord& {
        auto it = index.find(id);
        if (it == index.end())
            throw InputError("case " + std::to_string(id) + " of run " + std::to_string(run_id) +
                             " is damaged in the database");
        return out[it->second];
    };
    while (counters.step()) case_at(counters.int64(0)).counters.push_back(counter_row(counters));
    if (with_samples)
        for (auto& [id, reps] : run_samples(run_id)) case_at(id).samples = std::move(reps);
    return out;
}

std::vector<CaseRecord> Store::case_page(std::int64_t run_id, std::int64_t after_id, std::size_t limit) const {
    const auto max_rows = limit == 0 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(limit);
    // `+run_id` keeps SQLite off the (run_id, ...) index, which would read and sort the whole run
    // for every page; the rowid range scan reads only the page.
    Statement st(db_, std::string(kCaseColumns) + "WHERE +run_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    st.bind(1, run_id).bind(2, after_id).bind(3, max_rows);
    std::vector<CaseRecord> rows;
    while (st.step()) rows.push_back(case_row(st, run_id));
    if (rows.empty()) return rows;
    auto counters = counters_between(db_, run_id, rows.front().id, rows.back().id);
    for (CaseRecord& c : rows)
        if (auto it = counters.find(c.id); it != counters.end()) c.counters = std::move(it->second);
    return rows;
}

// More repetitions than anything memwall runs (a suite allows 1000000).
constexpr std::int64_t kMaxStoredRepetitions = 10'000'000;

std::unordered_map<std::int64_t, std::vector<std::vector<double>>> Store::run_samples(std::int64_t run_id) const {
    const auto [lo, hi] = id_range(db_, run_id);
    std::unordered_map<std::int64_t, std::vector<std::vector<double>>> out;
    Statement st(db_,
                 "SELECT s.case_id, s.rep, s.seconds FROM samples s JOIN cases c ON c.id = s.case_id "
                 "WHERE s.case_id BETWEEN ?1 AND ?2 AND +c.run_id = ?3 ORDER BY s.case_id, s.rep, s.idx");
    st.bind(1, lo).bind(2, hi).bind(3, run_id);
    std::int64_t current = -1;
    std::vector<std::vector<double>>* reps = nullptr;
    while (st.step()) {
        const std::int64_t id = st.int64(0);
        if (id != current) {
            current = id;
            reps = &out[id];
        }
        // Repetitions count from 0 and are few; a damaged file's rep must not size a vector.
        const std::int64_t stored_rep = st.int64(1);
        if (stored_rep < 0 || stored_rep >= kMaxStoredRepetitions)
            throw InputError("a sample of case " + std::to_string(id) + " has repetition " +
                             std::to_string(stored_rep) + ": the database is damaged");
        const auto rep = static_cast<std::size_t>(stored_rep);
        if (reps->size() <= rep) reps->resize(rep + 1);
        (*reps)[rep].push_back(st.real(2));
    }
    return out;
}

std::unordered_map<std::int64_t, std::vector<Counter>> Store::run_counters(std::int64_t run_id) const {
    const auto [lo, hi] = id_range(db_, run_id);
    return counters_between(db_, run_id, lo, hi);
}

std::size_t Store::remove_cases(std::int64_t run_id, const std::set<CaseStatus>& statuses) {
    Transaction tx(db_);
    std::size_t removed = 0;
    Statement st(db_, "DELETE FROM cases WHERE run_id = ?1 AND status = ?2");  // samples, counters cascade
    for (const CaseStatus s : statuses) {
        st.reset();
        st.bind(1, run_id);
        st.bind(2, std::string(to_string(s)));
        st.run();
        removed += static_cast<std::size_t>(sqlite3_changes(db_));
    }
    tx.commit();
    return removed;
}

}  // namespace memwall
