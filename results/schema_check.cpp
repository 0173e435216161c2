#include "results/schema_check.hpp"

#include <sqlite3.h>

#include <memory>
#include <set>
#include <utility>

#include "core/errors.hpp"
#include "results/migrations.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall {

namespace {

// (type, name) of every table and index, and (table, column) of every column.
struct Shape {
    std::set<std::pair<std::string, std::string>> objects;
    std::set<std::pair<std::string, std::string>> columns;
};

Shape shape_of(sqlite3* db) {
    Shape s;
    Statement objects(db, "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index')");
    while (objects.step()) s.objects.emplace(objects.text(0), objects.text(1));
    Statement columns(db,
                      "SELECT m.name, c.name FROM sqlite_schema m, pragma_table_info(m.name) c "
                      "WHERE m.type = 'table'");
    while (columns.step()) s.columns.emplace(columns.text(0), columns.text(1));
    return s;
}

}  // namespace

void check_schema(sqlite3* db, int version, const std::string& path) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE, nullptr);
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> reference(raw, sqlite3_close);
    if (rc != SQLITE_OK) throw_sqlite_error(raw, "opening an in-memory database");
    migrate(raw, 0, version);
    const Shape want = shape_of(raw);
    const Shape have = shape_of(db);
    // Tables before their indexes: a dropped table is named, not its primary key's index.
    for (const char* kind : {"table", "index"})
        for (const auto& [type, name] : want.objects)
            if (type == kind && !have.objects.count({type, name}))
                throw InputError(path + ": damaged database: " + type + " " + name + " of schema " +
                                 std::to_string(version) + " is missing");
    for (const auto& [table, column] : want.columns)
        if (!have.columns.count({table, column}))
            throw InputError(path + ": damaged database: table " + table + " has no column " + column);
}

}  // namespace memwall
