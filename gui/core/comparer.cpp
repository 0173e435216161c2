#include "gui/core/comparer.hpp"

#include <exception>
#include <optional>

#include "gui/core/results_reader.hpp"

namespace memwall::gui {

Comparer::Comparer(QObject* parent) : QObject(parent) {}

Comparer::~Comparer() { cancel(); }

void Comparer::set_database(const QString& path) {
    cancel();
    path_ = path;
    cache_ = {};
}

void Comparer::cancel() {
    ++generation_;  // progress already queued for the UI thread is dropped on arrival
    if (!worker_) return;
    stop_->store(true);
    worker_->wait();
    delete worker_;
    worker_ = nullptr;
}

void Comparer::start(const RunRow& baseline, const std::vector<const CaseRow*>& baseline_rows, const RunRow& candidate,
                     const std::vector<const CaseRow*>& candidate_rows, const CompareOptions& options) {
    cancel();
    const std::uint64_t generation = generation_;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    const std::string file = path_.toStdString();
    auto sides = std::make_shared<std::pair<CompareSide, CompareSide>>(compare_side(file, baseline, baseline_rows),
                                                                       compare_side(file, candidate, candidate_rows));
    const bool with_counters = needs_counters(baseline.info, candidate.info, options);
    auto known = std::make_shared<const Cache>(cache_);  // the maps are shared, not copied
    worker_ = QThread::create([this, generation, stop = stop_, file, sides, with_counters, known, options] {
        auto loaded = std::make_shared<Cache>();
        std::shared_ptr<RunComparison> result;
        QString error;
        try {
            std::optional<ResultsReader> reader;
            const auto open = [&]() -> const ResultsReader& {
                if (!reader) reader.emplace(file);
                return *reader;
            };
            // Kept from earlier comparisons, or read now (once, when both sides are one run).
            const Cache* const caches[] = {known.get(), loaded.get()};
            const auto samples_of = [&](std::int64_t run) {
                for (const Cache* c : caches)
                    if (const auto it = c->samples.find(run); it != c->samples.end()) return it->second;
                return loaded->samples[run] = std::make_shared<const SampleMap>(open().samples(run));
            };
            const auto counters_of = [&](std::int64_t run) {
                if (!with_counters) return std::make_shared<const CounterMap>();
                for (const Cache* c : caches)
                    if (const auto it = c->counters.find(run); it != c->counters.end()) return it->second;
                return loaded->counters[run] = std::make_shared<const CounterMap>(open().counters(run));
            };
            auto& [base, cand] = *sides;
            const auto bs = samples_of(base.run.info.id), cs = samples_of(cand.run.info.id);
            const auto bc = counters_of(base.run.info.id), cc = counters_of(cand.run.info.id);
            CompareControl control;
            control.stop = stop.get();
            control.progress = [this, generation](std::size_t done, std::size_t total) {
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, done, total] {
                        if (generation == generation_)
                            emit progress(static_cast<qint64>(done), static_cast<qint64>(total));
                    },
                    Qt::QueuedConnection);
            };
            auto r = compare_sides(std::move(base), std::move(cand), options, *bs, *cs, *bc, *cc, control);
            if (r) result = std::make_shared<RunComparison>(std::move(*r));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        if (stop->load()) return;
        QMetaObject::invokeMethod(
            this, [this, generation, result, error, loaded] { end(generation, result, error, loaded); },
            Qt::QueuedConnection);
    });
    worker_->start();
}

void Comparer::end(std::uint64_t generation, std::shared_ptr<RunComparison> result, const QString& error,
                   std::shared_ptr<Cache> loaded) {
    if (generation != generation_) return;
    worker_->wait();
    delete worker_;
    worker_ = nullptr;
    cache_.samples.merge(loaded->samples);
    cache_.counters.merge(loaded->counters);
    if (result)
        emit finished(result);
    else
        emit failed(error);
}

}  // namespace memwall::gui
