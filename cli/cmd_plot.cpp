// `memwall plot`: the explorer's charts rendered headless into PNG or SVG (built with Qt 6).
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <QGuiApplication>

#include "gui/core/plot.hpp"
#include "cli/app.hpp"
#include "cli/run_ref.hpp"
#include "core/errors.hpp"
#include "core/output_file.hpp"

namespace memwall::cli {

namespace {

struct PlotArgs {
    std::string kind, out, run = "latest", baseline, level, kernel, x, y, metric = "time", session, size = "1200x800";
    CompareOptions compare;
};

// Qt's notes about the environment (no XDG_RUNTIME_DIR, ...) are not the user's business
// here; its errors still reach stderr.
void quiet_qt_messages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg) std::fprintf(stderr, "memwall: qt: %s\n", qPrintable(message));
}

void parse_size(const std::string& s, gui::PlotRequest& q) {
    const auto x = s.find('x');
    try {
        if (x == std::string::npos) throw std::invalid_argument(s);
        q.width = std::stoi(s.substr(0, x));
        q.height = std::stoi(s.substr(x + 1));
    } catch (const std::logic_error&) {
        throw UsageError("--size must be WIDTHxHEIGHT in pixels, e.g. 1200x800 (got '" + s + "')");
    }
}

}  // namespace

void add_plot_command(CLI::App& app, Context& ctx) {
    auto* cmd =
        app.add_subcommand("plot", "render a chart (roofline, compare, heatmap, tuning) to PNG or SVG, headless");
    auto a = std::make_shared<PlotArgs>();
    cmd->add_option("chart", a->kind, "roofline | compare | heatmap | tuning")
        ->required()
        ->check(CLI::IsMember({"roofline", "compare", "heatmap", "tuning"}));
    cmd->add_option("--out,-o", a->out, "output file, .png or .svg")->required();
    cmd->add_option("--run", a->run, "run id, 'latest', or a tag key=value (default: latest)");
    cmd->add_option("--baseline", a->baseline, "compare: the baseline run (default: the run before --run)");
    cmd->add_option("--threshold", a->compare.threshold,
                    "compare: minimum change that counts, as in memwall compare (default 0.05)");
    cmd->add_option("--alpha", a->compare.alpha, "compare: significance level, as in memwall compare (default 0.05)");
    cmd->add_flag("--cross-device", a->compare.cross_device,
                  "compare: runs of different devices or backends, each case normalised by its run's roofline");
    cmd->add_option("--level", a->level,
                    "roofline: place points at this memory level (dram, llc, l2, l1), or at every level each case has "
                    "bytes at, joined, with the model's beside measured ones (all); default: each case's outermost");
    cmd->add_option("--kernel", a->kernel,
                    "heatmap: family/variant/backend (default: the one that varies most tunables)");
    cmd->add_option("--x", a->x, "heatmap: the parameter along x");
    cmd->add_option("--y", a->y, "heatmap: the parameter along y");
    cmd->add_option("--metric", a->metric, "heatmap: time | roof (% of roof)")->check(CLI::IsMember({"time", "roof"}));
    cmd->add_option("--session", a->session,
                    "tuning: a session id, or part of its kernel, problem or device; its study's sessions are overlaid "
                    "(default: the newest session's)");
    cmd->add_option("--size", a->size, "image size in pixels (default: 1200x800)");
    cmd->callback([&ctx, a] {
        gui::PlotRequest q;
        q.kind = a->kind;
        q.out = a->out;
        q.level = a->level;
        q.kernel = a->kernel;
        q.x = a->x;
        q.y = a->y;
        q.metric = a->metric == "roof" ? gui::MapMetric::percent_of_roof : gui::MapMetric::time;
        q.session = a->session;
        q.compare = a->compare;
        q.compare.validate();
        parse_size(a->size, q);
        if (!q.out.ends_with(".png") && !q.out.ends_with(".svg"))
            throw UsageError("--out must end in .png or .svg (got '" + q.out + "')");
        refuse_overwriting(q.out, Store::files(ctx.db_path), "the database " + ctx.db_path);
        const gui::ResultsReader reader(ctx.db_path);
        if (q.kind != "tuning") {  // tuning sessions belong to no run
            q.run = resolve_run_with_cases(reader.store(), a->run);
            if (!a->baseline.empty()) q.baseline = resolve_run_with_cases(reader.store(), a->baseline);
        }
        // Text needs a QGuiApplication; the offscreen platform needs no display.
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        qInstallMessageHandler(quiet_qt_messages);
        static int argc = 1;
        static char name[] = "memwall";
        static char* argv[] = {name, nullptr};
        const QGuiApplication qt(argc, argv);
        gui::plot(reader, q);
    });
}

}  // namespace memwall::cli
