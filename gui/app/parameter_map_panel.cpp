#include "gui/app/parameter_map_panel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"

namespace memwall::gui {

namespace {

// Replaces the items of `combo`, keeping the current text when it is still offered.
void replace_items(QComboBox* combo, const QStringList& items, int fallback) {
    const QString current = combo->currentText();
    const QSignalBlocker block(combo);
    combo->clear();
    combo->addItems(items);
    const int keep = static_cast<int>(items.indexOf(current));
    combo->setCurrentIndex(keep >= 0 ? keep : std::min(fallback, static_cast<int>(items.size()) - 1));
}

}  // namespace

ParameterMapPanel::ParameterMapPanel(QWidget* parent)
    : QWidget(parent),
      kernel_(new QComboBox(this)),
      x_(new QComboBox(this)),
      y_(new QComboBox(this)),
      metric_(new QComboBox(this)),
      view_(new ChartWidget(chart_, this)),
      table_(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Kernel:"), this));
    bar->addWidget(kernel_);
    bar->addWidget(new QLabel(QStringLiteral("x:"), this));
    bar->addWidget(x_);
    bar->addWidget(new QLabel(QStringLiteral("y:"), this));
    bar->addWidget(y_);
    bar->addWidget(new QLabel(QStringLiteral("Colour:"), this));
    metric_->addItem(QStringLiteral("median time"), static_cast<int>(MapMetric::time));
    metric_->addItem(QStringLiteral("% of roof"), static_cast<int>(MapMetric::percent_of_roof));
    bar->addWidget(metric_);
    bar->addStretch(1);
    layout->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(view_);
    table_->setModel(&model_);
    table_->verticalHeader()->setDefaultSectionSize(22);
    split->addWidget(table_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    for (QComboBox* c : {kernel_, x_, y_, metric_}) c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(kernel_, &QComboBox::currentIndexChanged, this, [this] {
        refresh_axes();
        rebuild();
    });
    for (QComboBox* c : {x_, y_, metric_})
        connect(c, &QComboBox::currentIndexChanged, this, &ParameterMapPanel::rebuild);
    connect(view_, &ChartWidget::caseClicked, this, &ParameterMapPanel::caseClicked);
}

void ParameterMapPanel::set_rows(const std::vector<const CaseRow*>& rows) {
    rows_ = rows;
    replace_items(kernel_, mappable_kernels(rows_), 0);
    refresh_axes();
    rebuild();
}

void ParameterMapPanel::refresh_axes() {
    const QStringList axes = varying_params(rows_of_kernel(rows_, kernel_->currentText()));
    replace_items(x_, axes, 0);
    replace_items(y_, axes, 1);
}

void ParameterMapPanel::rebuild() {
    const QString kernel = kernel_->currentText();
    const bool ready = !kernel.isEmpty() && x_->currentIndex() >= 0 && y_->currentIndex() >= 0 &&
                       x_->currentText() != y_->currentText();
    ParameterMap map;
    if (ready)
        map = build_parameter_map(rows_of_kernel(rows_, kernel), x_->currentText(), y_->currentText(),
                                  static_cast<MapMetric>(metric_->currentData().toInt()));
    model_.set_map(map);
    configure_heatmap(chart_, kernel, std::move(map));
    if (!ready)
        chart_.set_title(
            kernel.isEmpty() ? QStringLiteral("Parameter map") : QStringLiteral("Parameter map: ") + kernel,
            kernel.isEmpty() ? QStringLiteral("no kernel among the shown cases varies two parameters")
                             : QStringLiteral("choose two different axes"));
    view_->update();
}

}  // namespace memwall::gui
