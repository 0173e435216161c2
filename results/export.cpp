#include "results/export.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <ostream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "metrics/roofline.hpp"
#include "stats/statistics.hpp"

namespace memwall {

namespace {

using ojson = nlohmann::ordered_json;

constexpr std::array<std::pair<ExportFormat, std::string_view>, 4> kFormatNames{{
    {ExportFormat::json, "json"},
    {ExportFormat::csv, "csv"},
    {ExportFormat::gbench, "gbench"},
    {ExportFormat::bmf, "bmf"},
}};

// What an export needs of a run, read once.
struct RunData {
    RunInfo run;
    std::map<std::string, std::string> properties;  // of the device the run measured on
    Ceilings ceilings;
    std::vector<CaseRecord> cases;
};

RunData load(const Store& store, std::int64_t run_id) {
    auto run = store.run(run_id);
    if (!run) throw InputError(store.path() + ": no run " + std::to_string(run_id));
    return RunData{std::move(*run), store.run_properties(run_id), store.ceilings(run_id), store.cases(run_id)};
}

ojson parse_stored(const Store& store, const std::string& text, std::string_view what) {
    try {
        return ojson::parse(text);
    } catch (const ojson::parse_error&) {
        throw InputError(store.path() + ": " + std::string(what) + " is not valid JSON: " + text);
    }
}

std::string shortest(double v) {
    std::array<char, 32> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return std::string(buf.data(), res.ptr);
}

// Indented JSON. Stored text need not be UTF-8 (a tag typed in another encoding): such bytes
// become U+FFFD rather than failing the whole export.
std::string dump(const ojson& doc) { return doc.dump(2, ' ', false, ojson::error_handler_t::replace); }

// "b=1,d=64" from {"b":1,"d":64}, as Params::label() (core/params.hpp) writes it.
std::string label(const ojson& params) {
    std::string out;
    for (const auto& [k, v] : params.items()) {
        if (!out.empty()) out += ',';
        out += k;
        out += '=';
        if (v.is_string())
            out += v.get<std::string>();
        else if (v.is_number_float())
            out += shortest(v.get<double>());
        else
            out += v.dump();
    }
    return out;
}

// "family/variant/backend", the name of a case's kernel.
std::string kernel_name(const CaseRecord& c) { return c.key.family + "/" + c.key.variant + "/" + c.key.backend; }

// The kernel's name, then the problem's and the configuration's labels: one benchmark's name.
std::string case_name(const Store& store, const CaseRecord& c) {
    const std::string what = "case " + std::to_string(c.id);
    std::string name = kernel_name(c);
    for (const std::string& l : {label(parse_stored(store, c.key.problem, what + " problem")),
                                 label(parse_stored(store, c.key.config, what + " config"))})
        if (!l.empty()) name += "/" + l;
    return name;
}

// A roofline point for a timed ok case, against the run's ceilings; nullopt when it cannot
// be placed (no FLOP or byte counters, no ceilings).
std::optional<RooflinePoint> roofline_of(const CaseRecord& c, const Ceilings& ceilings) {
    if (!ran(c.status) || c.summary.n == 0) return std::nullopt;
    RooflinePoint p = place_on_roofline(c.counters, c.summary.median, ceilings.for_backend(c.key.backend));
    if (!p.valid) return std::nullopt;
    return p;
}

// ---- JSON ----------------------------------------------------------------------------------

ojson text_or_null(const std::string& s) { return s.empty() ? ojson(nullptr) : ojson(s); }

ojson run_json(const Store& store, const RunInfo& r, const std::map<std::string, std::string>& properties) {
    ojson tags = ojson::object();
    for (const auto& [k, v] : r.tags) tags[k] = v;
    ojson device = ojson::object();
    for (const auto& [k, v] : properties) device[k] = v;
    return ojson{
        {"id", r.id},
        {"started_at", r.started_at},
        {"finished_at", text_or_null(r.finished_at)},
        {"status", to_string(r.status)},
        {"host", r.host},
        {"backend", r.backend},
        {"device", r.device},
        {"git_revision", text_or_null(r.git_revision)},
        {"command_line", r.command_line},
        {"memwall_version", r.memwall_version},
        {"sweep", r.sweep.empty() ? ojson(nullptr) : parse_stored(store, r.sweep, "the run's sweep")},
        {"tags", std::move(tags)},
        {"properties", std::move(device)},
    };
}

// The trust flag and the provenance appear only when set, so exports of trusted, measured
// ceilings keep their shape.
ojson ceiling_json(const Ceiling& c, std::int64_t reused_from_run) {
    ojson j{
        {"name", c.name}, {"kind", to_string(c.kind)}, {"value", c.value},
        {"unit", c.unit}, {"method", c.method},        {"capacity_bytes", c.capacity_bytes},
    };
    if (!c.reliable()) j["unreliable"] = c.unreliable;
    if (reused_from_run > 0) j["reused_from_run"] = reused_from_run;
    return j;
}

ojson levels_json(const std::vector<RooflineLevel>& ls) {
    ojson levels = ojson::array();
    for (const RooflineLevel& l : ls) {
        levels.push_back(ojson{
            {"level", l.level},
            {"bytes", l.bytes},
            {"intensity", l.intensity},
            {"bytes_per_second", l.bytes_per_second},
            {"bandwidth", l.bandwidth},
            {"attainable", l.attainable},
            {"source", to_string(l.source)},
            {"counters", l.counters},
            {"lower_bound", l.lower_bound},
        });
    }
    return levels;
}

ojson roofline_json(const RooflinePoint& p) {
    return ojson{
        {"flops_per_second", p.flops_per_second},
        {"bytes_per_second", p.bytes_per_second},
        {"intensity", p.intensity},
        {"attainable", p.attainable},
        {"bound", p.bound},
        {"percent_of_bound", p.percent_of_bound},
        {"bytes_source", to_string(p.bytes_source)},
        {"levels", levels_json(p.levels)},
        {"beside", levels_json(p.beside)},
    };
}

ojson case_json(const Store& store, const CaseRecord& c, const Ceilings& ceilings) {
    const std::string what = "case " + std::to_string(c.id);
    ojson j{
        {"family", c.key.family},
        {"variant", c.key.variant},
        {"backend", c.key.backend},
        {"timing", timing_of(c.key.backend)},
        {"problem", parse_stored(store, c.key.problem, what + " problem")},
        {"config", parse_stored(store, c.key.config, what + " config")},
        {"status", to_string(c.status)},
        {"message", c.message},
        {"measured_at", c.measured_at},
    };
    const Summary& s = c.summary;
    if (s.n == 0) {
        j["summary"] = nullptr;
    } else {
        j["summary"] = ojson{
            {"n", s.n},           {"median", s.median}, {"min", s.min}, {"max", s.max}, {"mean", s.mean},
            {"stddev", s.stddev}, {"q1", s.q1},         {"q3", s.q3},   {"iqr", s.iqr},
        };
    }
    j["samples"] = c.samples;
    ojson counters = ojson::array();
    for (const Counter& k : c.counters) {
        counters.push_back(
            ojson{{"name", k.name}, {"value", k.value}, {"unit", k.unit}, {"source", to_string(k.source)}});
    }
    j["counters"] = std::move(counters);
    if (auto p = roofline_of(c, ceilings)) j["roofline"] = roofline_json(*p);
    return j;
}

void write_json(const Store& store, const RunData& d, std::ostream& out, const ExportOptions& options) {
    ojson ceilings = ojson::array();
    for (const Ceiling& c : d.ceilings.items) ceilings.push_back(ceiling_json(c, d.ceilings.reused_from_run));
    ojson cases = ojson::array();
    for (const CaseRecord& c : d.cases) cases.push_back(case_json(store, c, d.ceilings));
    const ojson doc{
        {"memwall_version", options.memwall_version},
        {"run", run_json(store, d.run, d.properties)},
        {"ceilings", std::move(ceilings)},
        {"cases", std::move(cases)},
    };
    out << dump(doc) << '\n';
}

// ---- CSV -----------------------------------------------------------------------------------

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
    std::string q = "\"";
    for (char ch : s) {
        if (ch == '"') q += '"';
        q += ch;
    }
    q += '"';
    return q;
}

void write_csv_row(std::ostream& out, const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) out << ',';
        out << csv_field(fields[i]);
    }
    out << "\r\n";  // RFC 4180 line break
}

void write_csv(const RunData& d, std::ostream& out) {
    write_csv_row(
        out, {"run_id", "family", "variant", "backend", "problem", "config", "status", "n", "median_s", "min_s",
              "stddev_s", "iqr_s", "gflops", "gbps", "intensity", "bound", "pct_of_bound", "bytes_source", "timing"});
    for (const CaseRecord& c : d.cases) {
        const Summary& s = c.summary;
        const bool timed = s.n > 0;
        const auto time = [timed](double v) { return timed ? shortest(v) : std::string(); };
        const auto p = roofline_of(c, d.ceilings);
        const auto point = [&p](double v) { return p ? shortest(v) : std::string(); };
        write_csv_row(out, {
                               std::to_string(d.run.id),
                               c.key.family,
                               c.key.variant,
                               c.key.backend,
                               c.key.problem,
                               c.key.config,
                               std::string(to_string(c.status)),
                               std::to_string(s.n),
                               time(s.median),
                               time(s.min),
                               time(s.stddev),
                               time(s.iqr),
                               point(p ? p->flops_per_second / 1e9 : 0),
                               point(p ? p->bytes_per_second / 1e9 : 0),
                               point(p ? p->intensity : 0),
                               p ? p->bound : std::string(),
                               point(p ? p->percent_of_bound : 0),
                               p ? std::string(to_string(p->bytes_source)) : std::string(),
                               std::string(timing_of(c.key.backend)),
                           });
    }
}

// ---- Google Benchmark JSON -----------------------------------------------------------------

// Cache entries of GB's context from the capacities of the run's cache ceilings, innermost
// (smallest) first.
ojson gbench_caches(const Ceilings& ceilings) {
    std::vector<const Ceiling*> caches;
    for (const Ceiling& c : ceilings.items)
        if (c.kind == CeilingKind::bandwidth && c.capacity_bytes > 0) caches.push_back(&c);
    std::stable_sort(caches.begin(), caches.end(),
                     [](const Ceiling* a, const Ceiling* b) { return a->capacity_bytes < b->capacity_bytes; });
    ojson out = ojson::array();
    for (std::size_t i = 0; i < caches.size(); ++i) {
        out.push_back(ojson{
            {"type", i == 0 ? "Data" : "Unified"},
            {"level", i + 1},
            {"size", static_cast<std::int64_t>(caches[i]->capacity_bytes)},
        });
    }
    return out;
}

// An integer tag of the run, when present and numeric.
std::optional<std::int64_t> integer_tag(const RunInfo& r, const std::string& key) {
    auto it = r.tags.find(key);
    if (it == r.tags.end()) return std::nullopt;
    std::int64_t v = 0;
    const std::string& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return v;
}

ojson gbench_context(const RunData& d) {
    ojson ctx{
        {"date", d.run.started_at},
        {"host_name", d.run.host},
        {"executable", d.run.command_line},
    };
    if (auto v = integer_tag(d.run, "num_cpus")) ctx["num_cpus"] = *v;
    if (auto v = integer_tag(d.run, "mhz_per_cpu")) ctx["mhz_per_cpu"] = *v;
    ctx["caches"] = gbench_caches(d.ceilings);
    if (auto it = d.run.tags.find("library_build_type"); it != d.run.tags.end()) ctx["library_build_type"] = it->second;
    ctx["memwall_run"] = d.run.id;
    ctx["memwall_version"] = d.run.memwall_version;
    ctx["memwall_device"] = d.run.device;
    return ctx;
}

constexpr std::string_view kEmulationLabel = "cuda-emu: emulation time, not a GPU time";

void write_gbench(const Store& store, const RunData& d, std::ostream& out) {
    ojson benchmarks = ojson::array();
    // GB numbers benchmark families and the instances (argument sets) inside each.
    std::map<std::string, std::pair<std::size_t, std::size_t>> families;  // name -> index, instances
    for (const CaseRecord& c : d.cases) {
        if (ran(c.status) && c.summary.n == 0) continue;  // not timed: nothing to compare
        const auto fam = families.try_emplace(kernel_name(c), families.size(), 0).first;
        const std::size_t family_index = fam->second.first;
        const std::size_t instance_index = fam->second.second++;
        const std::string name = case_name(store, c);
        const bool emulated = timing_of(c.key.backend) == "emulation";

        const auto entry = [&](const std::string& entry_name, std::string_view run_type, std::size_t repetitions) {
            ojson e{
                {"name", entry_name}, {"family_index", family_index}, {"per_family_instance_index", instance_index},
                {"run_name", name},   {"run_type", run_type},         {"repetitions", repetitions},
            };
            return e;
        };
        // memwall measures wall time only; cpu_time repeats it so compare.py's columns agree.
        const auto times = [&](ojson& e, std::size_t iterations, double seconds) {
            e["iterations"] = iterations;
            e["real_time"] = seconds * 1e9;
            e["cpu_time"] = seconds * 1e9;
            e["time_unit"] = "ns";
            if (emulated) e["label"] = kEmulationLabel;
        };

        if (!ran(c.status)) {
            // As Google Benchmark writes a failed benchmark: zero iterations and times.
            ojson e = entry(name, "iteration", 1);
            e["repetition_index"] = 0;
            e["threads"] = 1;
            e["error_occurred"] = true;
            e["error_message"] = std::string(to_string(c.status)) + (c.message.empty() ? "" : ": " + c.message);
            times(e, 0, 0);
            benchmarks.push_back(std::move(e));
            continue;
        }
        const std::size_t n = c.summary.n;
        std::size_t index = 0;
        for (const auto& rep : c.samples) {
            for (double seconds : rep) {
                ojson e = entry(name, "iteration", n);
                e["repetition_index"] = index++;
                e["threads"] = 1;
                times(e, 1, seconds);
                benchmarks.push_back(std::move(e));
            }
        }
        if (n < 2) continue;  // as Google Benchmark: no aggregates of a single repetition
        const std::array<std::pair<std::string_view, double>, 3> aggregates{{
            {"mean", c.summary.mean},
            {"median", c.summary.median},
            {"stddev", c.summary.stddev},
        }};
        for (const auto& [aggregate, seconds] : aggregates) {
            ojson e = entry(name + "_" + std::string(aggregate), "aggregate", n);
            e["threads"] = 1;
            e["aggregate_name"] = aggregate;
            e["aggregate_unit"] = "time";
            times(e, n, seconds);
            benchmarks.push_back(std::move(e));
        }
    }
    const ojson doc{{"context", gbench_context(d)}, {"benchmarks", std::move(benchmarks)}};
    out << dump(doc) << '\n';
}

// ---- Bencher Metric Format -----------------------------------------------------------------

// One benchmark per timed ok case, named as in the gbench export, with Bencher's built-in
// `latency` measure (nanoseconds): the median of all samples, and as lower and upper values the
// distribution-free 95% interval of that median, so Bencher's thresholds see how sure it is.
void write_bmf(const Store& store, const RunData& d, std::ostream& out) {
    ojson doc = ojson::object();
    for (const CaseRecord& c : d.cases) {
        if (!ran(c.status) || c.summary.n == 0) continue;
        std::vector<double> samples;
        for (const auto& rep : c.samples) samples.insert(samples.end(), rep.begin(), rep.end());
        const Interval ci = median_ci(samples);
        doc[case_name(store, c)] =
            ojson{{"latency",
                   {{"value", c.summary.median * 1e9}, {"lower_value", ci.lo * 1e9}, {"upper_value", ci.hi * 1e9}}}};
    }
    out << dump(doc) << '\n';
}

}  // namespace

std::string_view to_string(ExportFormat f) {
    for (const auto& [format, name] : kFormatNames)
        if (format == f) return name;
    return "unknown";
}

std::optional<ExportFormat> export_format_from(std::string_view s) {
    for (const auto& [format, name] : kFormatNames)
        if (name == s) return format;
    return std::nullopt;
}

std::string_view timing_of(std::string_view backend) { return backend == "cuda-emu" ? "emulation" : "measured"; }

void export_run(const Store& store, std::int64_t run_id, ExportFormat format, std::ostream& out,
                const ExportOptions& options) {
    const RunData d = load(store, run_id);
    switch (format) {
        case ExportFormat::json: write_json(store, d, out, options); break;
        case ExportFormat::csv: write_csv(d, out); break;
        case ExportFormat::gbench: write_gbench(store, d, out); break;
        case ExportFormat::bmf: write_bmf(store, d, out); break;
    }
}

}  // namespace memwall
