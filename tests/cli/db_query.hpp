// One number from a database a memwall process may be writing: the CLI tests' window on what a
// killed or interrupted command left stored.
#pragma once

#include <filesystem>

namespace memwall::test {

// The first column of the first row of `sql` on `db`, opened read-only (waiting up to 2 s for a
// writer); -1 when the database cannot be opened or the query gives no row.
long long query(const std::filesystem::path& db, const char* sql);

}  // namespace memwall::test
