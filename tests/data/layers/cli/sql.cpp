// Fixture: SQL outside results/.
#include <sqlite3.h>
