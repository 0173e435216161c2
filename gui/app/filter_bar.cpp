#include "gui/app/filter_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>

namespace memwall::gui {

namespace {

QString all_text(CaseField f) {
    switch (f) {
        case CaseField::family: return QStringLiteral("all families");
        case CaseField::variant: return QStringLiteral("all variants");
        case CaseField::backend: return QStringLiteral("all backends");
        case CaseField::status: return QStringLiteral("any status");
    }
    return {};
}

}  // namespace

FilterBar::FilterBar(CaseFilterProxy& proxy, QWidget* parent)
    : QWidget(parent), proxy_(proxy), text_(new QLineEdit(this)), regex_(new QCheckBox(QStringLiteral("regex"), this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(QStringLiteral("Filter:"), this));
    text_->setPlaceholderText(QStringLiteral("kernel, parameters, status (e.g. flash seq_q=1024)"));
    text_->setClearButtonEnabled(true);
    text_->setObjectName(QStringLiteral("filterText"));
    layout->addWidget(text_, 1);
    layout->addWidget(regex_);
    for (const CaseField f : {CaseField::family, CaseField::variant, CaseField::backend, CaseField::status}) {
        auto* combo = new QComboBox(this);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        combo->addItem(all_text(f));
        combos_[f] = combo;
        layout->addWidget(combo);
        connect(combo, &QComboBox::currentIndexChanged, this, [this, f, combo](int i) {
            proxy_.set_allowed(f, i <= 0 ? QSet<QString>() : QSet<QString>{combo->itemText(i)});
            emit filtersChanged();
        });
    }
    typing_.setSingleShot(true);
    typing_.setInterval(150);
    connect(&typing_, &QTimer::timeout, this, &FilterBar::apply_text);
    connect(text_, &QLineEdit::textChanged, this, [this] { typing_.start(); });
    connect(regex_, &QCheckBox::toggled, this, &FilterBar::apply_text);
    if (proxy_.cases()) connect(proxy_.cases(), &CaseModel::valuesChanged, this, &FilterBar::refresh_values);
}

void FilterBar::apply_text() {
    typing_.stop();
    const bool ok = proxy_.set_text(text_->text(), regex_->isChecked());
    text_->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #ffd6d6; }"));
    text_->setToolTip(ok ? QString() : proxy_.error());
    if (ok) emit filtersChanged();
}

void FilterBar::refresh_values() {
    for (const auto& [field, combo] : combos_) {
        const QString current = combo->currentIndex() > 0 ? combo->currentText() : QString();
        const QStringList values = proxy_.cases()->values(field);
        QStringList present;
        for (int i = 1; i < combo->count(); ++i) present << combo->itemText(i);
        if (present == values) continue;
        const QSignalBlocker block(combo);
        combo->clear();
        combo->addItem(all_text(field));
        combo->addItems(values);
        const int keep = current.isEmpty() ? 0 : static_cast<int>(values.indexOf(current)) + 1;
        combo->setCurrentIndex(keep);
        if (keep == 0 && !current.isEmpty()) {
            proxy_.set_allowed(field, {});
            emit filtersChanged();
        }
    }
}

}  // namespace memwall::gui
