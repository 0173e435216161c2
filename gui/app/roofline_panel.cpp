#include "gui/app/roofline_panel.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/core/plot.hpp"

namespace memwall::gui {

RooflinePanel::RooflinePanel(QWidget* parent)
    : QWidget(parent), view_(new ChartWidget(chart_, this)), level_(new QComboBox(this)), roofs_(new QHBoxLayout) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Place points at:"), this));
    bar->addWidget(level_);
    bar->addSpacing(16);
    bar->addWidget(new QLabel(QStringLiteral("Roofs:"), this));
    bar->addLayout(roofs_);
    bar->addStretch(1);
    auto* reset = new QPushButton(QStringLiteral("Reset view"), this);
    reset->setToolTip(QStringLiteral("Wheel zooms, drag pans, double click resets"));
    bar->addWidget(reset);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);
    level_->addItem(QStringLiteral("outermost level"), QString());
    level_->addItem(QStringLiteral("every level (hierarchical)"), QString::fromLatin1(RooflineChart::kEveryLevel));
    auto* modelled = new QCheckBox(QStringLiteral("model beside measured"), this);
    modelled->setToolTip(QStringLiteral("Every level: also draw the model's points where counters placed the case"));
    modelled->setChecked(chart_.show_modelled());
    bar->insertWidget(2, modelled);
    connect(modelled, &QCheckBox::toggled, this, [this](bool on) {
        chart_.set_show_modelled(on);
        chart_.set_cases(rows_);
        view_->update();
    });
    connect(level_, &QComboBox::currentIndexChanged, this, [this] {
        chart_.set_level(level_->currentData().toString().toStdString());
        chart_.set_cases(rows_);
        chart_.reset_view();
        view_->update();
    });
    connect(reset, &QPushButton::clicked, this, [this] {
        chart_.reset_view();
        view_->update();
    });
    connect(view_, &ChartWidget::caseClicked, this, &RooflinePanel::caseClicked);
}

void RooflinePanel::set_data(const RunRow* run, const std::vector<const CaseRow*>& rows) {
    rows_ = rows;
    if (run) {
        configure_roofline(chart_, *run, rows_);
    } else {
        chart_.set_title(QStringLiteral("Roofline"), QStringLiteral("no run selected"));
        chart_.set_ceilings({});
        chart_.set_cases(rows_);
    }
    if (chart_.roof_names() != roof_names_) rebuild_controls();
    view_->update();
}

void RooflinePanel::rebuild_controls() {
    roof_names_ = chart_.roof_names();
    while (QLayoutItem* item = roofs_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QString level = level_->currentData().toString();
    const QSignalBlocker block(level_);
    while (level_->count() > 2) level_->removeItem(2);
    for (const Ceiling& c : chart_.ceilings().items) {
        const std::string name = c.name;
        auto* box = new QCheckBox(ceiling_label(name), this);
        box->setChecked(chart_.roof_visible(name));
        connect(box, &QCheckBox::toggled, this, [this, name](bool on) {
            chart_.set_roof_visible(name, on);
            view_->update();
        });
        roofs_->addWidget(box);
        if (c.kind == CeilingKind::bandwidth) level_->addItem(ceiling_label(name), QString::fromStdString(name));
    }
    const int keep = level_->findData(level);
    level_->setCurrentIndex(keep < 0 ? 0 : keep);
    if (keep < 0 && !level.isEmpty()) {
        chart_.set_level("");
        chart_.set_cases(rows_);
    }
}

void RooflinePanel::set_selected(std::optional<std::int64_t> case_id) {
    chart_.set_selected(case_id);
    view_->update();
}

}  // namespace memwall::gui
