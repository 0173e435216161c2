#include "results/tune_eval_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall {

namespace {

// Quartiles of evaluations needed, and ratios of them, are infinite when too few seeds got
// there: stored as NULL.
std::optional<double> finite_or_null(double x) {
    if (std::isfinite(x)) return x;
    return std::nullopt;
}

double read_needed(const Statement& st, int col) {
    return st.is_null(col) ? std::numeric_limits<double>::infinity() : st.real(col);
}

}  // namespace

std::int64_t save_tune_eval(Store& store, const TuneEvalTable& table, const TuneEvalInfo& info) {
    sqlite3* db = store.handle();
    Transaction tx(db);
    Statement eval(db,
                   "INSERT INTO tune_evals (created_at, host, seeds, git_revision, command_line, memwall_version, "
                   "stop_chance) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    eval.bind(1, info.created_at.empty() ? utc_timestamp() : info.created_at).bind(2, info.host);
    eval.bind(3, static_cast<std::int64_t>(table.seeds));
    if (info.git_revision.empty())
        eval.bind_null(4);
    else
        eval.bind(4, info.git_revision);
    eval.bind(5, info.command_line).bind(6, info.memwall_version).bind(7, table.stop_chance).run();
    const std::int64_t id = sqlite3_last_insert_rowid(db);

    Statement space(db,
                    "INSERT INTO tune_eval_spaces (eval_id, space, device, kernel, size, ok, optimum_seconds, "
                    "median_seconds, budget, random_within10, random_within5, random_optimum, has_counters) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    Statement score(
        db,
        "INSERT INTO tune_eval_scores (eval_id, space, strategy, score, score_sd, within10_q1, "
        "within10_median, within10_q3, within10_reached, within5_q1, within5_median, within5_q3, "
        "within5_reached, optimum_q1, optimum_median, optimum_q3, optimum_reached, stopped_q1, stopped_median, "
        "stopped_q3, stopped_reached, strategy_seconds, versus, versus_ratio, versus_lo, versus_hi) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
        "?21, ?22, ?23, ?24, ?25, ?26)");
    for (const TuneEvalSpace& s : table.spaces) {
        space.reset();
        space.bind(1, id).bind(2, s.name).bind(3, s.device).bind(4, s.kernel);
        space.bind(5, static_cast<std::int64_t>(s.size)).bind(6, static_cast<std::int64_t>(s.ok));
        space.bind(7, s.optimum_seconds).bind(8, s.median_seconds).bind(9, static_cast<std::int64_t>(s.budget));
        space.bind(10, s.random_within10).bind(11, s.random_within5).bind(12, s.random_optimum);
        space.bind(13, std::int64_t{s.has_counters ? 1 : 0});
        if (space.run(true) != SQLITE_DONE)
            throw InputError("two spaces are named '" + s.name + "': tune-eval stores one per file name");
        for (const TuneEvalRow& r : s.rows) {
            score.reset();
            score.bind(1, id).bind(2, s.name).bind(3, r.strategy).bind(4, r.score).bind(5, r.score_sd);
            int col = 6;
            for (const EvaluationsNeeded* n : {&r.within10, &r.within5, &r.optimum, &r.stopped}) {
                score.bind(col, finite_or_null(n->q1)).bind(col + 1, finite_or_null(n->median));
                score.bind(col + 2, finite_or_null(n->q3)).bind(col + 3, static_cast<std::int64_t>(n->reached));
                col += 4;
            }
            score.bind(22, r.strategy_seconds);
            if (r.versus.empty()) {
                for (int c = 23; c <= 26; ++c) score.bind_null(c);
            } else {
                score.bind(23, r.versus).bind(24, finite_or_null(r.versus_ratio));
                score.bind(25, finite_or_null(r.versus_lo)).bind(26, finite_or_null(r.versus_hi));
            }
            score.run();
        }
    }
    tx.commit();
    return id;
}

std::optional<TuneEvalTable> load_tune_eval(const Store& store, std::int64_t id) {
    sqlite3* db = store.handle();
    Statement eval(db, "SELECT seeds, stop_chance FROM tune_evals WHERE id = ?1");
    eval.bind(1, id);
    if (!eval.step()) return std::nullopt;
    TuneEvalTable table;
    table.seeds = static_cast<std::size_t>(eval.int64(0));
    table.stop_chance = eval.real(1);

    Statement spaces(db,
                     "SELECT space, device, kernel, size, ok, optimum_seconds, median_seconds, budget, "
                     "random_within10, random_within5, random_optimum, has_counters FROM tune_eval_spaces "
                     "WHERE eval_id = ?1 ORDER BY space");
    spaces.bind(1, id);
    std::map<std::string, std::size_t> index;
    while (spaces.step()) {
        TuneEvalSpace s;
        s.name = spaces.text(0);
        s.device = spaces.text(1);
        s.kernel = spaces.text(2);
        s.size = static_cast<std::size_t>(spaces.int64(3));
        s.ok = static_cast<std::size_t>(spaces.int64(4));
        s.optimum_seconds = spaces.real(5);
        s.median_seconds = spaces.real(6);
        s.budget = static_cast<std::size_t>(spaces.int64(7));
        s.random_within10 = spaces.real(8);
        s.random_within5 = spaces.real(9);
        s.random_optimum = spaces.real(10);
        s.has_counters = spaces.int64(11) != 0;
        index[s.name] = table.spaces.size();
        table.spaces.push_back(std::move(s));
    }

    Statement scores(
        db,
        "SELECT space, strategy, score, score_sd, within10_q1, within10_median, within10_q3, "
        "within10_reached, within5_q1, within5_median, within5_q3, within5_reached, optimum_q1, "
        "optimum_median, optimum_q3, optimum_reached, stopped_q1, stopped_median, stopped_q3, stopped_reached, "
        "strategy_seconds, versus, versus_ratio, versus_lo, versus_hi FROM tune_eval_scores "
        "WHERE eval_id = ?1 ORDER BY space, strategy");
    scores.bind(1, id);
    std::vector<std::pair<std::string, double>> sums;  // strategy, score sum; first-seen order
    while (scores.step()) {
        TuneEvalRow r;
        r.strategy = scores.text(1);
        r.score = scores.real(2);
        r.score_sd = scores.real(3);
        int col = 4;
        for (EvaluationsNeeded* n : {&r.within10, &r.within5, &r.optimum, &r.stopped}) {
            n->q1 = read_needed(scores, col++);
            n->median = read_needed(scores, col++);
            n->q3 = read_needed(scores, col++);
            n->reached = static_cast<std::size_t>(scores.int64(col++));
        }
        r.strategy_seconds = scores.real(20);
        if (!scores.is_null(21)) {
            r.versus = scores.text(21);
            r.versus_ratio = read_needed(scores, 22);
            r.versus_lo = read_needed(scores, 23);
            r.versus_hi = read_needed(scores, 24);
        }
        auto sum = std::find_if(sums.begin(), sums.end(), [&](const auto& p) { return p.first == r.strategy; });
        if (sum == sums.end()) sum = sums.insert(sums.end(), {r.strategy, 0.0});
        sum->second += r.score;
        table.spaces[index.at(scores.text(0))].rows.push_back(std::move(r));
    }
    for (auto& [strategy, sum] : sums)
        table.mean_scores.emplace_back(strategy, sum / static_cast<double>(table.spaces.size()));
    return table;
}

}  // namespace memwall
