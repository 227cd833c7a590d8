import CSQLite

/// A SQLite failure, with the statement or step that failed.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "\(message) (SQLite code \(code))" }
    /// The disk (or the file's size limit) is full: nothing else is wrong, and writing may work again later.
    var isStorageFull: Bool { code & 0xff == SQLITE_FULL }
}

/// One SQLite connection, owned by the engine thread (it is never shared): the C API used directly, since
/// every call is synchronous on the thread that owns the world anyway.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// The statements `run` has prepared, by the address of their literal text: found again by comparing
    /// addresses, where finding them by text hashed it and compared it whole (thousands of instructions for the
    /// three statements a request commits under durability). A literal's text stays at one address for as long as
    /// the program runs; two literals of the same text may be two entries.
    private var literals: [(text: UnsafeRawPointer, statement: SQLiteStatement)] = []

    /// `readOnly`: an existing database, only read (a damaged one being salvaged).
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    func close() {
        statements.removeAll()
        literals.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Closes leaving the write-ahead log untouched (SQLite folds it into the database and removes it otherwise).
    func closeKeepingLog() {
        if let handle { responder_sqlite_no_checkpoint_on_close(handle) }
        close()
    }

    /// Pages in the write-ahead log after the last commit, as SQLite reports them. Watching the log turns off
    /// SQLite's own checkpoint after commits: the owner checkpoints (`checkpoint`) when this grows.
    private let log = LogPages()
    var logPages: Int { Int(log.pages) }

    private final class LogPages { var pages: Int32 = 0 }

    func watchLog() {
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                Unmanaged<LogPages>.fromOpaque(context!).takeUnretainedValue().pages = pages
                return SQLITE_OK
            }, Unmanaged.passUnretained(log).toOpaque())
    }

    /// Folds the log into the database (every page: the engine's is the only connection).
    func checkpoint() throws(SQLiteError) {
        try execute("PRAGMA wal_checkpoint(PASSIVE)")
        log.pages = 0
    }

    func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// A prepared statement, cached by its text.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let s = statements[sql] {
            s.reset()
            return s
        }
        let s = try prepare(sql)
        statements[sql] = s
        return s
    }

    private func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, sql) }
        return SQLiteStatement(stmt, database: self, sql: sql)
    }

    /// Runs `sql` with `values` bound in order, to completion. The statement is prepared once (`literals`).
    func run(_ sql: StaticString, _ values: SQLiteValue...) throws(SQLiteError) {
        let key = UnsafeRawPointer(sql.utf8Start)
        let s: SQLiteStatement
        if let i = literals.firstIndex(where: { $0.text == key }) {
            s = literals[i].statement
        } else {
            s = try prepare(sql.description)
            literals.append((key, s))
        }
        try s.withBindings(values[...]) { () throws(SQLiteError) in while try s.step() {} }
    }

    /// The whole of one blob, read straight into the array returned. A query's blob column spanning many pages
    /// is first gathered by SQLite into a buffer of its own and then copied out: for a large snapshot's tree that
    /// is twice its size in fresh pages, each taken and cleared by the kernel.
    func blob(table: String, column: String, rowid: Int64) throws(SQLiteError) -> [UInt8] {
        var blob: OpaquePointer?
        let what = "\(table).\(column) of row \(rowid)"
        let rc = sqlite3_blob_open(handle, "main", table, column, rowid, 0, &blob)
        defer { sqlite3_blob_close(blob) }
        guard rc == SQLITE_OK, let blob else { throw error(rc, what) }
        let n = Int(sqlite3_blob_bytes(blob))
        var read = SQLITE_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: n) { buffer, count in
            if n > 0 { read = sqlite3_blob_read(blob, buffer.baseAddress, Int32(n), 0) }
            count = read == SQLITE_OK ? n : 0
        }
        guard read == SQLITE_OK else { throw error(read, what) }
        return bytes
    }

    /// The rows of a query, each as its columns.
    func rows(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> [[SQLiteValue]] {
        let s = try statement(sql)
        for (i, v) in values.enumerated() { s.bind(i + 1, v) }
        var out: [[SQLiteValue]] = []
        while try s.step() { out.append((0..<s.columnCount).map { s.column($0) }) }
        s.reset()
        return out
    }

    func error(_ rc: Int32, _ what: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no database"
        return SQLiteError(code: rc, message: "\(message) in \(what.prefix(80))")
    }
}

enum SQLiteValue: Equatable {
    case null
    case integer(Int)
    case text(String)
    case blob([UInt8])

    var int: Int? { if case .integer(let v) = self { v } else { nil } }
    var string: String? { if case .text(let v) = self { v } else { nil } }
    var bytes: [UInt8]? {
        switch self {
        case .blob(let b): return b
        case .text(let t): return Array(t.utf8)
        default: return nil
        }
    }
}

final class SQLiteStatement {
    private let stmt: OpaquePointer
    private unowned let database: SQLiteDatabase
    private let sql: String

    init(_ stmt: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.stmt = stmt
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    func bind(_ index: Int, _ value: SQLiteValue) {
        let i = Int32(index)
        // SQLITE_TRANSIENT: SQLite copies the bytes before bind returns, so they need not outlive the call.
        let transient = responder_sqlite_transient()
        switch value {
        case .null: sqlite3_bind_null(stmt, i)
        case .integer(let v): sqlite3_bind_int64(stmt, i, Int64(v))
        case .text(let t): sqlite3_bind_text(stmt, i, t, -1, transient)
        case .blob(let b): b.withUnsafeBytes { bindBlob(i, $0, transient) }
        }
    }

    /// `destructor` nil is SQLITE_STATIC: SQLite reads the bytes where they are, until the bindings are cleared.
    private func bindBlob(_ i: Int32, _ bytes: UnsafeRawBufferPointer, _ destructor: sqlite3_destructor_type?) {
        // An empty blob has no address: any non-null one with length 0 binds an empty blob (null would bind NULL),
        // and SQLite reads no byte of it.
        _ = sqlite3_bind_blob64(
            stmt, i, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), destructor)
    }

    /// Runs `body` with `values` bound from `index` on, each blob where it is (SQLITE_STATIC: SQLite reads the
    /// caller's bytes, where a copy of a snapshot's tree would be tens of megabytes written once more), then resets
    /// the statement and clears its bindings before the blobs may move or go.
    func withBindings<R>(
        _ values: ArraySlice<SQLiteValue>, from index: Int = 1, _ body: () throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        guard let value = values.first else {
            defer { reset() }
            return try body()
        }
        guard case .blob(let b) = value else {
            bind(index, value)
            return try withBindings(values.dropFirst(), from: index + 1, body)
        }
        let result = b.withUnsafeBytes { raw -> Result<R, SQLiteError> in
            bindBlob(Int32(index), raw, nil)
            do throws(SQLiteError) {
                return .success(try withBindings(values.dropFirst(), from: index + 1, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// True while a row is ready.
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(stmt)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(stmt)
            return false
        default:
            sqlite3_reset(stmt)
            throw database.error(rc, sql)
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(stmt)) }

    func column(_ index: Int) -> SQLiteValue {
        let i = Int32(index)
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_INTEGER: return .integer(Int(sqlite3_column_int64(stmt, i)))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(stmt, i)))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(stmt, i))
            // The column's bytes are valid until the next step or reset: copied out at once.
            guard n > 0, let p = sqlite3_column_blob(stmt, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }
}
