#include "gui/core/case_loader.hpp"

#include <exception>

#include "gui/core/results_reader.hpp"

namespace memwall::gui {

CaseLoader::CaseLoader(QObject* parent) : QObject(parent) {}

CaseLoader::~CaseLoader() { cancel(); }

void CaseLoader::cancel() {
    ++generation_;  // pages already queued for the UI thread are dropped on arrival
    if (!worker_) return;
    stop_->store(true);
    worker_->wait();
    delete worker_;
    worker_ = nullptr;
}

void CaseLoader::start(const QString& path, const std::vector<RunRow>& runs, std::size_t page_size) {
    cancel();
    const std::uint64_t generation = generation_;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    std::vector<std::pair<std::int64_t, Ceilings>> targets;
    for (const RunRow& r : runs) targets.emplace_back(r.info.id, r.ceilings);
    worker_ = QThread::create([this, generation, stop = stop_, file = path.toStdString(), targets, page_size] {
        qint64 total = 0;
        QString error;
        try {
            const ResultsReader reader(file);
            for (const auto& [run, ceilings] : targets) {
                std::int64_t after = 0;
                while (!stop->load()) {
                    auto page = std::make_shared<std::vector<CaseRow>>(reader.cases(run, ceilings, after, page_size));
                    if (page->empty()) break;
                    after = page->back().id;
                    total += static_cast<qint64>(page->size());
                    const bool last = page->size() < page_size;
                    QMetaObject::invokeMethod(
                        this, [this, generation, page] { deliver(generation, page); }, Qt::QueuedConnection);
                    if (last) break;
                }
            }
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        if (stop->load()) return;
        QMetaObject::invokeMethod(
            this, [this, generation, total, error] { end(generation, total, error); }, Qt::QueuedConnection);
    });
    worker_->start();
}

void CaseLoader::deliver(std::uint64_t generation, std::shared_ptr<std::vector<CaseRow>> rows) {
    if (generation == generation_) emit pageLoaded(*rows);
}

void CaseLoader::end(std::uint64_t generation, qint64 cases, const QString& error) {
    if (generation != generation_) return;
    worker_->wait();
    delete worker_;
    worker_ = nullptr;
    if (error.isEmpty())
        emit finished(cases);
    else
        emit failed(error);
}

}  // namespace memwall::gui
