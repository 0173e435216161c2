#include <iostream>
#include <set>

#include "cli/app.hpp"
#include "cli/table.hpp"
#include "core/isa.hpp"
#include "profiler/perf_events.hpp"

namespace memwall::cli {

namespace {

std::string values_text(const Axis& a) {
    std::string out;
    for (const auto& v : a.defaults) out += (out.empty() ? "" : ",") + to_string(v);
    return out;
}

std::string allowed_text(const Axis& a) {
    std::string out;
    for (const auto& c : a.choices) out += (out.empty() ? "" : "|") + c;
    if (!out.empty()) return out;
    if (a.min && a.max) return to_string(Value{*a.min}) + ".." + to_string(Value{*a.max});
    return "";
}

void print_family(std::ostream& os, const Family& f) {
    os << f.name << ": " << f.description << "\n\n";
    Table axes({"axis", "role", "kind", "default", "allowed", "description"});
    for (const auto& a : f.problem_axes)
        axes.add({a.name, "problem", std::string(to_string(a.kind)), values_text(a), allowed_text(a), a.description});
    std::set<std::string> own;  // a variant's own problem axes, once for its backends together
    for (const auto& v : f.variants)
        for (const auto& a : v.problem_axes)
            if (own.insert(a.name).second)
                axes.add({a.name, "problem (" + v.name + ")", std::string(to_string(a.kind)), values_text(a),
                          allowed_text(a), a.description});
    for (const auto& z : f.zipped) {
        std::string names;
        for (const auto& n : z) names += (names.empty() ? "" : ",") + n;
        axes.add({"(" + names + ")", "zipped", "", "", "", "advance together; --unzip to sweep them apart"});
    }
    axes.print(os);
    os << '\n';
    if (!f.presets.empty()) {
        Table presets({"preset", "sets"});
        for (const auto& pr : f.presets) presets.add({pr.axis + "=" + pr.value, pr.sets.label()});
        presets.print(os);
        os << '\n';
    }
    Table vars({"variant", "backend", "available", "tunables (defaults)", "description"});
    for (const auto& v : f.variants) {
        const BackendStatus st = probe_backend(v.backend);
        std::string tun;
        for (const auto& a : v.tunables) tun += (tun.empty() ? "" : " ") + a.name + "=" + values_text(a);
        std::string avail = st.available ? "yes" : "no";
        if (!v.gpu_only_reason.empty()) avail += " (GPU only: " + v.gpu_only_reason + ")";
        vars.add({v.name, std::string(to_string(v.backend)), avail, tun.empty() ? "-" : tun, v.description});
    }
    vars.print(os);
    os << '\n';
}

}  // namespace

void add_list_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("list", "families, variants, axes and defaults, and the backends available here");
    auto family = std::make_shared<std::string>();
    cmd->add_option("--family,-f", *family, "show one family");
    cmd->callback([&ctx, family] {
        std::ostream& os = std::cout;
        if (!family->empty()) {
            print_family(os, ctx.catalogue.family(*family));
            return;
        }
        os << "Backends\n";
        Table b({"backend", "available", "device or reason"});
        for (Backend be : kAllBackends) {
            const BackendStatus st = probe_backend(be);
            b.add({std::string(to_string(be)), st.available ? "yes" : "no", st.available ? st.device : st.reason});
        }
        b.print(os);
        os << "\nCPU kernels: " << isa_summary() << "; --isa or MEMWALL_ISA chooses\n";
        const PerfAvailability perf = probe_perf_events();
        os << "\nCPU counters (perf_event): " << (perf.available ? "available" : "unavailable: " + perf.reason)
           << "\n\n";
        for (const auto& f : ctx.catalogue.families()) print_family(os, f);
    });
}

}  // namespace memwall::cli
