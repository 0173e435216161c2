// What the explorer holds of a run and of a case: the stored figures, the case's parameters
// split out of its JSON, and its roofline placement against its own run's ceilings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "metrics/roofline.hpp"
#include "results/store.hpp"

namespace memwall::gui {

inline QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

struct RunRow {
    RunInfo info;
    Ceilings ceilings;
    std::size_t cases = 0;
};

// A parameter of a case, typed as its run stored it: the value as the sweep had it, and the
// axis's kind from the run's axes (for runs that predate them, the value's own type).
struct Param {
    QString name;
    Value value;
    AxisKind kind = AxisKind::integer;
    bool tunable = false;  // from the case's config rather than its problem

    QString text() const;                  // as memwall prints it: "512", "fp32", "0.25"
    std::optional<double> number() const;  // integer, real and boolean axes; nullopt for enums
};

struct CaseRow {
    std::int64_t id = 0, run_id = 0;
    CaseKey key;
    CaseStatus status = CaseStatus::ok;
    QString family, variant, backend, message;
    std::vector<Param> params;  // problem axes, then tunables
    QString params_text;        // "batch=1 heads=8 ... | Br=32 Bc=128"
    QString search_text;        // what the text filter matches: kernel, parameters, status
    std::size_t n_samples = 0;
    double median = 0, min = 0, q1 = 0, q3 = 0;  // seconds; all 0 when not timed
    std::string sampling_stop;                   // why sampling stopped; "host busy" makes a comparison UNSURE
    RooflinePoint point;                         // valid only for timed cases with models and ceilings

    bool timed() const { return n_samples > 0; }
    // The text of parameter `name`, or an empty string.
    QString param(const QString& name) const;
    // Parameter `name`, or nullptr.
    const Param* find_param(const QString& name) const;
    // The roofline level named `level` ("dram", "llc", ...), or nullptr.
    const RooflineLevel* level(const std::string& level) const;
};

// Parameters of a case from its canonical JSON problem and config (objects of scalars), with
// kinds from `axes` (its run's axes) where they name them. Throws InputError when either is not
// a JSON object of scalars.
std::vector<Param> parse_params(const std::string& family, const std::string& problem_json,
                                const std::string& config_json, const std::vector<RunAxis>& axes = {});

// Fills the derived fields (params, texts, roofline point) of a row whose stored fields are set.
void complete_case_row(CaseRow& row, const std::vector<Counter>& counters, const Ceilings& ceilings,
                       const std::vector<RunAxis>& axes = {});

// "kernel params" one-line label: "attention/flash/cpu seq_q=512 ... Br=32".
QString case_label(const CaseRow& row);

}  // namespace memwall::gui
