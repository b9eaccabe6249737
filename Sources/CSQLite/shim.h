#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one function for each use of it.
   Without the memory statistics (which nothing reads), SQLite's allocations take no global
   mutex: 4% of an index run went to locking it. Only before SQLite is initialized. */
static inline int themed_sqlite3_config_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
