#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline int doogit_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

// The same for a function's result: SQLite copies the bytes.
static inline void doogit_sqlite3_result_blob(sqlite3_context *context, const void *bytes, int length) {
    sqlite3_result_blob(context, bytes, length, SQLITE_TRANSIENT);
}

// sqlite3_db_config takes variable arguments, which Swift cannot call. Turns the connection's
// triggers on or off (statements prepared before are prepared again); 0 when it did.
static inline int doogit_sqlite3_enable_triggers(sqlite3 *db, int enable) {
    int now = -1;
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enable, &now);
    return code == SQLITE_OK && now == enable ? 0 : 1;
}
