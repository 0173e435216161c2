// Runs compare_sides for the compare view on a worker thread: reads the samples of the two runs
// (once per run, then kept for the next comparison of the same database), reports progress,
// and hands the result to the UI thread. A new start or cancel() stops the comparison in flight.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>

#include <QObject>
#include <QString>
#include <QThread>

#include "gui/core/compare.hpp"

namespace memwall::gui {

class Comparer : public QObject {
    Q_OBJECT
  public:
    explicit Comparer(QObject* parent = nullptr);
    ~Comparer() override;

    // Forgets the samples read from the previous database.
    void set_database(const QString& path);
    // Compares `baseline` with `candidate` (the rows given must stay alive until finished or
    // failed arrives, or cancel()).
    void start(const RunRow& baseline, const std::vector<const CaseRow*>& baseline_rows, const RunRow& candidate,
               const std::vector<const CaseRow*>& candidate_rows, const CompareOptions& options);
    // Stops the worker; no signal of the cancelled comparison arrives afterwards.
    void cancel();
    bool busy() const { return worker_ != nullptr; }

  signals:
    void progress(qint64 done, qint64 total);
    // The receiver may move from the comparison (its cases are many).
    void finished(std::shared_ptr<memwall::gui::RunComparison> comparison);
    void failed(const QString& message);

  private:
    struct Cache {
        std::map<std::int64_t, std::shared_ptr<const SampleMap>> samples;
        std::map<std::int64_t, std::shared_ptr<const CounterMap>> counters;
    };
    void end(std::uint64_t generation, std::shared_ptr<RunComparison> result, const QString& error,
             std::shared_ptr<Cache> loaded);

    QString path_;
    Cache cache_;
    QThread* worker_ = nullptr;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::uint64_t generation_ = 0;
};

}  // namespace memwall::gui
