// Forward migrations of the results schema. Migration i takes PRAGMA user_version i-1 to i;
// version 1 creates the schema. Append new migrations; never edit a released one.
#pragma once

#include <span>
#include <string_view>

struct sqlite3;

namespace memwall {

struct Migration {
    int version;            // the user_version after it
    std::string_view what;  // one line, for messages
    const char* sql;
};

std::span<const Migration> migrations();

// The schema version recorded in the database (PRAGMA user_version).
int user_version(sqlite3* db);

// Applies migrations from+1 .. to, each in its own transaction that also sets user_version
// and the memwall application_id, so an interrupted migration leaves a consistent version; from
// 0 (a new database) all in one, so an interrupted creation leaves it blank.
void migrate(sqlite3* db, int from, int to);

}  // namespace memwall
