// Loads the cases of some runs on a worker thread and hands them to the UI thread page by
// page, so a run of 100,000 cases shows its first rows at once and never freezes the window.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QThread>

#include "gui/core/case_data.hpp"

namespace memwall::gui {

class CaseLoader : public QObject {
    Q_OBJECT
  public:
    explicit CaseLoader(QObject* parent = nullptr);
    ~CaseLoader() override;

    // Cancels any load in progress, then loads the cases of `runs` (with their ceilings) from
    // the database at `path`, `page_size` at a time, in run order.
    void start(const QString& path, const std::vector<RunRow>& runs, std::size_t page_size = 2000);
    // Stops the worker; no signal of the cancelled load arrives afterwards.
    void cancel();
    bool busy() const { return worker_ != nullptr; }

  signals:
    void pageLoaded(const std::vector<memwall::gui::CaseRow>& rows);
    void finished(qint64 cases);
    void failed(const QString& message);

  private:
    void deliver(std::uint64_t generation, std::shared_ptr<std::vector<CaseRow>> rows);
    void end(std::uint64_t generation, qint64 cases, const QString& error);

    QThread* worker_ = nullptr;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::uint64_t generation_ = 0;
};

}  // namespace memwall::gui
