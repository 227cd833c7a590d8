#include <sqlite3.h>

/// `SQLITE_TRANSIENT` (SQLite copies bound bytes before the bind returns): a macro casting -1 to a function
/// pointer, which Swift cannot import, so it is handed over from C.
static inline sqlite3_destructor_type responder_sqlite_transient(void) { return SQLITE_TRANSIENT; }
