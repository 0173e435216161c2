#include "gui/app/tuning_panel.hpp"

#include <exception>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"

namespace memwall::gui {

TuningPanel::TuningPanel(QWidget* parent)
    : QWidget(parent), study_(new QComboBox(this)), view_(new ChartWidget(chart_, this)), table_(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Study:"), this));
    study_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(study_, 1);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    sorted_.setSourceModel(&model_);
    sorted_.setSortRole(TuningModel::SortRole);
    table_->setModel(&sorted_);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // evaluation order until a header is clicked
    table_->setSortingEnabled(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->setWordWrap(false);
    split->addWidget(table_);
    split->setSizes({900, 500});
    layout->addWidget(split, 1);
    connect(study_, &QComboBox::currentIndexChanged, this, &TuningPanel::show_study);
    chart_.set_title(QStringLiteral("Tuning"), QString());
}

void TuningPanel::set_database(const QString& path, std::vector<TuningStudy> studies) {
    path_ = path;
    studies_ = std::move(studies);
    {
        const QSignalBlocker block(study_);
        study_->clear();
        for (const TuningStudy& s : studies_)
            study_->addItem(QStringLiteral("%1 (%2 session%3)")
                                .arg(s.name())
                                .arg(s.sessions.size())
                                .arg(s.sessions.size() == 1 ? QString() : QStringLiteral("s")));
        study_->setCurrentIndex(newest_study(studies_));
    }
    show_study(study_->currentIndex());
}

void TuningPanel::show_study(int index) {
    if (index != study_->currentIndex()) {
        study_->setCurrentIndex(index);  // shows it through currentIndexChanged
        return;
    }
    if (index < 0 || static_cast<std::size_t>(index) >= studies_.size()) {
        model_.set_traces({});
        chart_.set_traces({}, {});
        chart_.set_title(QStringLiteral("Tuning"), QStringLiteral("no tuning session in this database"));
        view_->update();
        return;
    }
    const TuningStudy& study = studies_[static_cast<std::size_t>(index)];
    std::vector<TuningTrace> traces;
    try {
        traces = study_traces(ResultsReader(path_.toStdString()).store(), study);
    } catch (const std::exception& e) {
        model_.set_traces({});
        chart_.set_traces({}, {});
        chart_.set_title(QStringLiteral("Tuning: ") + study.name(),
                         QStringLiteral("not read: ") + QString::fromStdString(e.what()));
        view_->update();
        return;
    }
    model_.set_traces(traces);
    configure_tuning(chart_, study, std::move(traces));
    table_->resizeColumnsToContents();
    view_->update();
}

}  // namespace memwall::gui
