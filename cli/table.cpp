#include "cli/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "metrics/roofline.hpp"
#include "results/report.hpp"

namespace memwall::cli {

Table::Table(std::vector<std::string> header, std::vector<bool> right_aligned)
    : header_(std::move(header)), right_(std::move(right_aligned)) {
    right_.resize(header_.size(), false);
}

void Table::add(std::vector<std::string> row) {
    row.resize(header_.size());
    rows_.push_back(std::move(row));
}

void Table::print(std::ostream& os) const {
    std::vector<std::size_t> w(header_.size());
    for (std::size_t i = 0; i < header_.size(); ++i) w[i] = header_[i].size();
    for (const auto& r : rows_)
        for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    auto line = [&](const std::vector<std::string>& r) {
        std::string out;
        for (std::size_t i = 0; i < r.size(); ++i) {
            const std::string pad(w[i] - r[i].size(), ' ');
            out += right_[i] ? pad + r[i] : r[i] + (i + 1 < r.size() ? pad : "");
            if (i + 1 < r.size()) out += "  ";
        }
        os << out << '\n';
    };
    line(header_);
    std::vector<std::string> rule;
    for (auto x : w) rule.emplace_back(x, '-');
    line(rule);
    for (const auto& r : rows_) line(r);
}

std::string format_fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string format_si(double v, int digits) {
    const char* units[] = {"", "k", "M", "G", "T", "P"};
    int u = 0;
    while (std::fabs(v) >= 1000 && u < 5) {
        v /= 1000;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g%s", digits, v, units[u]);
    return buf;
}

namespace {

// GB/s with one decimal, or two significant digits below 1 (emulated kernels move little).
std::string gb_per_second(double bytes_per_second) {
    const double g = bytes_per_second / 1e9;
    if (g >= 1 || g == 0) return format_fixed(g, 1);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", g);
    return buf;
}

bool emulated(const CaseRecord& c) { return c.key.backend == "cuda-emu"; }

void emulation_note(std::ostream& os, const std::vector<CaseRecord>& cases) {
    if (std::any_of(cases.begin(), cases.end(), [](const CaseRecord& c) { return emulated(c) && c.summary.n > 0; }))
        os << "(emu) times are CPU emulation times of CUDA kernels, not GPU times; their roofline uses this CPU's "
              "ceilings.\n";
}

// The roof that bounds the point is flagged unreliable: its percentage is no claim about the case.
bool doubtful_roof(const RooflinePoint& p, const Ceilings& roofs) {
    const Ceiling* c = roofs.find(p.bound == "compute" ? "fp32_fma" : p.bound);
    return c && !c->reliable();
}

bool cut_short(const CaseRecord& c) { return c.sampling_stop == sampling_stop::kTimeLimitBeforeMin; }

}  // namespace

void print_cases(std::ostream& os, const std::vector<CaseRecord>& cases, const Ceilings& ceilings) {
    Table t({"case", "problem", "config", "status", "median", "IQR", "n", "GFLOP/s", "GB/s", "FLOP/B", "bound",
             "% of roof", "traffic"},
            {false, false, false, false, true, true, true, true, true, true, false, true, false});
    bool any_doubtful = false;
    for (const auto& c : cases) {
        std::vector<std::string> row{c.key.family + "/" + c.key.variant + "/" + c.key.backend,
                                     params_label(c.key.problem), params_label(c.key.config),
                                     std::string(to_string(c.status)) + (c.host_busy() ? " (busy)" : "")};
        if (ran(c.status) && c.summary.n > 0) {
            row.push_back(format_duration(c.summary.median) + (emulated(c) ? " (emu)" : ""));
            row.push_back(format_duration(c.summary.iqr));
            row.push_back(std::to_string(c.summary.n) + (cut_short(c) ? "!" : ""));
            const Ceilings roofs = ceilings.for_backend(c.key.backend);
            const RooflinePoint p = place_on_roofline(c.counters, c.summary.median, roofs);
            any_doubtful = any_doubtful || (p.valid && doubtful_roof(p, roofs));
            row.push_back(p.flops > 0 ? format_fixed(p.flops_per_second / 1e9, 1) : "-");
            // Traffic and intensity at the level that bounds the case (the outermost level when
            // compute bounds it), so the row reads as one roofline point.
            if (const RooflineLevel* lv = p.bounding_level()) {
                row.push_back(gb_per_second(lv->bytes_per_second));
                row.push_back(p.flops > 0 ? format_fixed(lv->intensity, 2) : "-");
                row.push_back(p.valid ? p.bound : "-");
                row.push_back(p.valid ? format_fixed(p.percent_of_bound, 1) + (doubtful_roof(p, roofs) ? "?" : "")
                                      : "-");
                row.push_back(std::string(to_string(lv->source)) + ":" + lv->level);
            }
        } else {
            row.push_back(c.message);
        }
        t.add(std::move(row));
    }
    t.print(os);
    emulation_note(os, cases);
    if (std::any_of(cases.begin(), cases.end(), cut_short))
        os << "n! sampling stopped at its time limit (--timeout) before --min-samples: fewer samples than asked.\n";
    if (any_doubtful)
        os << "% of roof? of a roof flagged unreliable (see the ceilings): a case above 100% proves the roof, not the "
              "case, wrong.\n";
    // Each busy case with its message, which says how many samples were discarded and why.
    for (const auto& c : cases)
        if (c.host_busy())
            os << "(busy) " << c.key.family << "/" << c.key.variant << "/" << c.key.backend << " "
               << params_label(c.key.problem)
               << ": the host was too busy to time it, compare judges it UNSURE: " << c.message << "\n";
}

void print_levels(std::ostream& os, const std::vector<CaseRecord>& cases, const Ceilings& ceilings) {
    Table t(
        {"case", "problem", "config", "level", "bytes from", "bytes", "GB/s", "FLOP/B", "% of level roof", "counters"},
        {false, false, false, false, false, true, true, true, true, false});
    for (const auto& c : cases) {
        if (!ran(c.status) || c.summary.n == 0) continue;
        const RooflinePoint p = place_on_roofline(c.counters, c.summary.median, ceilings.for_backend(c.key.backend));
        auto add = [&](const RooflineLevel& l, bool beside) {
            t.add({c.key.family + "/" + c.key.variant + "/" + c.key.backend, params_label(c.key.problem),
                   params_label(c.key.config), l.level + (!beside && l.level == p.bound ? " (bound)" : ""),
                   std::string(to_string(l.source)) + (beside ? " (beside)" : ""), format_si(l.bytes, 3) + "B",
                   gb_per_second(l.bytes_per_second), p.flops > 0 ? format_fixed(l.intensity, 3) : "-",
                   l.bandwidth > 0 ? format_fixed(100 * l.bytes_per_second / l.bandwidth, 2) : "-", l.counters});
        };
        for (const RooflineLevel& l : p.levels) {
            add(l, false);
            for (const RooflineLevel& b : p.beside)
                if (b.level == l.level) add(b, true);
        }
    }
    if (t.empty()) {
        os << "no timed case has bytes at any level\n";
        return;
    }
    t.print(os);
    os << "at each level the bytes of cupti, else perf, else emu, else the model place the point; the other "
          "sources' are shown beside them (perf's cache load misses, a lower bound, beside any other).\n";
    emulation_note(os, cases);
}

void print_ceilings(std::ostream& os, const Ceilings& c) {
    Table t({"ceiling", "kind", "value", "capacity", "method"}, {false, false, true, true, false});
    for (const auto& x : c.items) {
        const std::string value = x.kind == CeilingKind::compute ? format_fixed(x.value / 1e9, 1) + " GFLOP/s"
                                                                 : format_fixed(x.value / 1e9, 1) + " GB/s";
        t.add({x.name + (x.reliable() ? "" : " (unreliable)"), std::string(to_string(x.kind)), value,
               x.capacity_bytes > 0 ? format_si(x.capacity_bytes, 3) + "B" : "-", x.method});
    }
    t.print(os);
    if (const std::string line = unreliable_ceilings_line(c); !line.empty()) os << line << '\n';
    if (c.reused_from_run > 0) os << "reused from run " << c.reused_from_run << ", which measured them\n";
}

std::string unreliable_ceilings_line(const Ceilings& c) {
    std::string flagged;
    for (const auto& x : c.items)
        if (!x.reliable()) flagged += (flagged.empty() ? "" : "; ") + x.name + ": " + x.unreliable;
    if (flagged.empty()) return {};
    return "unreliable ceilings (" + flagged + "): `memwall ceilings` on a quiet machine measures them again";
}

void print_runs(std::ostream& os, const Store& store) {
    Table t({"run", "started", "status", "host", "backend", "cases", "revision", "tags"},
            {true, false, false, false, false, true, false, false});
    for (const auto& r : store.runs()) {
        std::string tags;
        for (const auto& [k, v] : r.tags) tags += (tags.empty() ? "" : ",") + k + "=" + v;
        t.add({std::to_string(r.id), r.started_at, std::string(to_string(r.status)), r.host, r.backend,
               std::to_string(store.case_count(r.id)), r.git_revision.empty() ? "-" : r.git_revision,
               tags.empty() ? "-" : tags});
    }
    if (t.empty()) {
        os << "no runs in " << store.path() << '\n';
        return;
    }
    t.print(os);
}

}  // namespace memwall::cli
