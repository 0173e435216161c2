#include "gui/app/tuning_panel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"

namespace memwall::gui {

TuningPanel::TuningPanel(QWidget* parent)
    : QWidget(parent), session_(new QComboBox(this)), view_(new ChartWidget(chart_, this)), table_(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Session:"), this));
    session_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(session_, 1);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    session_rows_.setSourceModel(&model_);
    session_rows_.setFilterKeyColumn(TuningModel::Session);
    session_rows_.setSortRole(TuningModel::SortRole);
    table_->setModel(&session_rows_);
    table_->setSortingEnabled(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->setColumnHidden(TuningModel::Session, true);
    split->addWidget(table_);
    split->setSizes({940, 420});
    layout->addWidget(split, 1);
    connect(session_, &QComboBox::currentIndexChanged, this, &TuningPanel::show_session);
    connect(view_, &ChartWidget::caseClicked, this, &TuningPanel::caseClicked);
}

void TuningPanel::set_rows(const std::vector<const CaseRow*>& rows) { set_traces(sweep_traces(rows)); }

void TuningPanel::set_traces(std::vector<TuningTrace> traces) {
    const QString current = session_->currentText();
    model_.set_traces(std::move(traces));
    const QStringList names = sessions(model_.traces());
    {
        const QSignalBlocker block(session_);
        session_->clear();
        session_->addItems(names);
        const int keep = static_cast<int>(names.indexOf(current));
        session_->setCurrentIndex(keep >= 0 ? keep : (names.isEmpty() ? -1 : 0));
    }
    show_session();
}

void TuningPanel::show_session() {
    const QString session = session_->currentText();
    session_rows_.setFilterRegularExpression(
        QRegularExpression(QRegularExpression::anchoredPattern(QRegularExpression::escape(session))));
    configure_tuning(chart_, session, model_.traces());
    if (session.isEmpty()) chart_.set_title(QStringLiteral("Tuning"), QStringLiteral("no tuning session among the shown cases"));
    table_->resizeColumnsToContents();
    view_->update();
}

}  // namespace memwall::gui
