// The explorer's window: runs panel, filterable cases table, and the chart tabs (roofline,
// compare, parameter map over the selected runs' shown cases; tuner over the database's tuning
// sessions). Opens a database from the command line, File > Open, recent
// files, or a file dropped on it; a bad file shows a message and leaves the window as it was.
#pragma once

#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include "gui/app/compare_panel.hpp"
#include "gui/app/filter_bar.hpp"
#include "gui/app/parameter_map_panel.hpp"
#include "gui/app/roofline_panel.hpp"
#include "gui/app/tuning_panel.hpp"
#include "gui/core/case_filter_proxy.hpp"
#include "gui/core/case_loader.hpp"
#include "gui/core/run_model.hpp"

class QMenu;

namespace memwall::gui {

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    enum Tab { RooflineTab, CompareTab, ParameterMapTab, TuningTab };

    explicit MainWindow(QWidget* parent = nullptr);

    // Opens `path` and loads its newest run; on failure shows the message, keeps what was open,
    // and returns false.
    bool open_database(const QString& path);
    const QString& last_error() const { return last_error_; }
    const QString& database() const { return path_; }

    // Selects these runs in the runs panel (their cases load in the background).
    void select_runs(const std::vector<std::int64_t>& ids);
    bool loading() const { return loader_.busy(); }
    // Selects the case in the table (clearing filters that hide it would be surprising, so a
    // hidden case is reported in the status bar instead); false when it is not shown.
    bool select_case(std::int64_t case_id);
    std::optional<std::int64_t> selected_case() const;

    // The chart of the current tab, and saving it (PNG or SVG by extension).
    Chart& current_chart();
    void export_chart(const QString& path);

    RunModel& runs() { return runs_; }
    CaseModel& cases() { return cases_; }
    CaseFilterProxy& proxy() { return proxy_; }
    FilterBar* filter_bar() const { return filter_; }
    QTableView* runs_view() const { return runs_view_; }
    QTableView* cases_view() const { return cases_view_; }
    QTabWidget* tabs() const { return tabs_; }
    RooflinePanel* roofline() const { return roofline_; }
    ComparePanel* compare() const { return compare_; }
    ParameterMapPanel* parameter_map() const { return map_; }
    TuningPanel* tuning() const { return tuning_; }
    // Redraws the current tab from the shown cases now, rather than after the short pause
    // that batches pages and keystrokes.
    void refresh_now();

  signals:
    // All cases of the selected runs have arrived.
    void loaded(qint64 cases);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void build_menus();
    void show_error(const QString& message);
    void remember(const QString& path);
    void rebuild_recent_menu();
    void runs_selected();
    void update_status();
    void refresh_tab(int tab);
    std::vector<const CaseRow*> rows_of_run(const std::vector<const CaseRow*>& rows, std::int64_t run) const;
    const RunRow* primary_run() const;

    QString path_, last_error_;
    RunModel runs_;
    QSortFilterProxyModel runs_sorted_;
    CaseModel cases_;
    CaseFilterProxy proxy_;
    CaseLoader loader_;
    std::vector<std::int64_t> selected_runs_;
    bool loading_done_ = false;
    std::vector<bool> stale_ = std::vector<bool>(4, true);
    QTimer refresh_;
    QElapsedTimer since_refresh_;

    QTableView* runs_view_;
    QTableView* cases_view_;
    FilterBar* filter_;
    QTabWidget* tabs_;
    RooflinePanel* roofline_;
    ComparePanel* compare_;
    ParameterMapPanel* map_;
    TuningPanel* tuning_;
    QMenu* recent_menu_ = nullptr;
    QLabel* status_;
};

}  // namespace memwall::gui
