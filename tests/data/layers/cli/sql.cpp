// Fixture: SQL outside results/.
#include <sqlite3.h>
// Fixture: the command line reaching the public header above it.
#include <memwall/memwall.hpp>
