// Whether a database holds the tables and columns its schema version promises: a table
// dropped or altered by hand is caught when the database is opened, before anything is
// written, rather than as a failing statement in the middle of a command.
#pragma once

#include <string>

struct sqlite3;

namespace memwall {

// Compares `db` with a fresh database migrated to `version` in memory. Throws InputError
// "<path>: damaged database: ..." naming the first missing table, index or column.
void check_schema(sqlite3* db, int version, const std::string& path);

}  // namespace memwall
