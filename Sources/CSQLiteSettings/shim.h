// sqlite3_config, which Swift cannot call (it is variadic): settings of the process's SQLite
// library, which take only before its first connection (SQLiteLibrary.swift).
#include <sqlite3.h>

/// Stops SQLite counting its allocations: the count is one mutex for the whole process, which
/// every sqlite3_malloc and sqlite3_free takes. SQLITE_MISUSE when the library has started.
static inline int wishlist_sqlite_count_no_allocations(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
