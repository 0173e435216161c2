#include "gui/core/run_model.hpp"

namespace memwall::gui {

namespace {

// "2024-05-01T12:34:56.789Z" -> "2024-05-01 12:34:56" (UTC, as stored).
QString started_text(const std::string& iso) {
    QString s = QString::fromStdString(iso).left(19);
    s.replace(QLatin1Char('T'), QLatin1Char(' '));
    return s;
}

}  // namespace

QString tags_text(const RunInfo& r) {
    QStringList parts;
    for (const auto& [k, v] : r.tags) parts << QString::fromStdString(k + "=" + v);
    return parts.join(QStringLiteral(", "));
}

QString run_title(const RunInfo& r) {
    QString s = QStringLiteral("run %1 · %2 UTC · %3 · %4")
                    .arg(r.id)
                    .arg(started_text(r.started_at), QString::fromStdString(r.host), QString::fromStdString(r.backend));
    const QString tags = tags_text(r);
    return tags.isEmpty() ? s : s + QStringLiteral(" · ") + tags;
}

void RunModel::set_runs(std::vector<RunRow> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

const RunRow* RunModel::run(std::int64_t id) const {
    for (const RunRow& r : runs_)
        if (r.info.id == id) return &r;
    return nullptr;
}

int RunModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const RunRow& r = runs_[static_cast<std::size_t>(index.row())];
    const RunInfo& i = r.info;
    if (role == RunIdRole) return QVariant::fromValue<qint64>(i.id);
    if (role == Qt::ToolTipRole)
        return QStringLiteral("%1\n%2\nmemwall %3%4")
            .arg(QString::fromStdString(i.command_line), QString::fromStdString(i.device),
                 QString::fromStdString(i.memwall_version),
                 i.git_revision.empty() ? QString()
                                        : QStringLiteral(" (%1)").arg(QString::fromStdString(i.git_revision)));
    if (role == Qt::TextAlignmentRole)
        return index.column() == Id || index.column() == Cases ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                               : QVariant();
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (index.column()) {
        case Id: return QVariant::fromValue<qint64>(i.id);
        case Started: return role == SortRole ? QString::fromStdString(i.started_at) : started_text(i.started_at);
        case Host: return QString::fromStdString(i.host);
        case Device: return QString::fromStdString(i.device);
        case Backend: return QString::fromStdString(i.backend);
        case Tags: return tags_text(i);
        case Cases: return QVariant::fromValue<qulonglong>(r.cases);
        case Status: return qstr(to_string(i.status));
        default: return {};
    }
}

QVariant RunModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[ColumnCount] = {"Run",     "Started (UTC)", "Host",  "Device",
                                                    "Backend", "Tags",          "Cases", "Status"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section]) : QVariant();
}

}  // namespace memwall::gui
