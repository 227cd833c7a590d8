#include <sqlite3.h>

/// `SQLITE_TRANSIENT` (SQLite copies bound bytes before the bind returns): a macro casting -1 to a function
/// pointer, which Swift cannot import, so it is handed over from C.
static inline sqlite3_destructor_type responder_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Leaves the write-ahead log as it is when the connection closes (no checkpoint, no removal): a start that
/// refuses a database must not fold or delete the evidence. `sqlite3_db_config` is variadic, which Swift cannot call.
static inline int responder_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
