// The filters above the cases table: text (plain or regular expression) and one choice each of
// family, variant, backend and status. Drives a CaseFilterProxy.
#pragma once

#include <map>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QTimer>
#include <QWidget>

#include "gui/core/case_filter_proxy.hpp"

namespace memwall::gui {

class FilterBar : public QWidget {
    Q_OBJECT
  public:
    FilterBar(CaseFilterProxy& proxy, QWidget* parent = nullptr);

    QLineEdit* text() const { return text_; }
    QCheckBox* regex() const { return regex_; }
    QComboBox* combo(CaseField f) const { return combos_.at(f); }
    // Applies the text now rather than after the typing pause.
    void apply_text();

  signals:
    void filtersChanged();

  private:
    void refresh_values();

    CaseFilterProxy& proxy_;
    QLineEdit* text_;
    QCheckBox* regex_;
    std::map<CaseField, QComboBox*> combos_;
    QTimer typing_;
};

}  // namespace memwall::gui
