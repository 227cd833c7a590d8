import CSQLite
import Foundation
import Glibc
import ResponderCore
import ResponderProtocol

/// The engine's durable state: one SQLite database in WAL mode in the state directory, written by the engine
/// thread alone. Per session a snapshot row (its world at a revision), a progress row (seq, revision, durable
/// parts) and a log of the batches applied since the snapshot; the log is folded into a new snapshot once it
/// outgrows it. Writes of the requests served together go in one transaction, committed before any of their
/// replies or events leave.
///
/// Progress has its own table because SQLite writes a row whole: if seq and the durable parts shared the
/// snapshot's row, every tap, key press or one-op batch would write the whole world again. Format 2; a
/// format-1 database becomes one when it is opened.
final class StateStore {
    static let fileName = "state.db"
    static let format = 2
    /// The log is compacted into a snapshot once it holds more bytes than this or than the snapshot itself.
    static let minimumLogBytes = 256 << 10

    let directory: String
    let path: String
    private let db: SQLiteDatabase
    private let lock: InstanceLock
    private let durability: Durability
    private var inTransaction = false
    /// The mark on disk (`StateMark`), and the one the group being written needs before it commits.
    private(set) var mark = StateMark()
    private var pendingMark: StateMark?
    /// A checkpoint folded the log into the database, and the generation is still to be raised.
    private var generationDue = false
    /// What was lost before this start, when `--recover` went on anyway.
    private(set) var loss: StateLoss?
    /// Bytes of each session's snapshot and of its log since, for the compaction rule.
    private var sizes: [String: (snapshot: Int, log: Int)] = [:]
    /// Each session's profile and its text: a session's profile never changes, and its progress is written
    /// after every dispatch (`SavedSessionState.text`).
    private var profiles: [String: (profile: Profile, text: [UInt8])] = [:]

    /// Opens (or creates) the database; a file that is not a healthy database of ours is an error naming it, and
    /// so is a database or write-ahead log that lost acknowledged changes (`StateLoss`) unless `recover` says to go
    /// on with what is left (`loss` then says what happened, for the restore and its report).
    init(directory: String, durability: Durability, recover: Bool = false) throws(EngineError) {
        try StateDirectory.prepare(directory)
        self.directory = directory
        self.durability = durability
        path = "\(directory)/\(Self.fileName)"
        do { lock = try InstanceLock(directory: directory, name: "state") } catch EngineError.alreadyRunning(_, let pid)
        {
            throw .stateDirectory(
                "the state directory \(directory) is in use by another engine" + (pid.map { " (pid \($0))" } ?? ""))
        } catch {
            throw .stateDirectory("\(error)")
        }
        // Before SQLite opens anything: opening replays the log and drops what it cannot read, without a word.
        do throws(EngineError) {
            let mark = try StateMark.read(directory)
            if let loss = StateLoss.find(database: path, mark: mark) {
                guard recover else {
                    throw .state(
                        "\(loss.what). Acknowledged changes would be lost: refusing to start. Put the file back, or start with --recover to go on with what is left (the log then names every session and revision that came back)"
                    )
                }
                self.loss = loss
                StateLoss.keepCopies(database: path, loss: loss)
            }
            self.mark = mark ?? StateMark()
        } catch {
            lock.release()
            throw error
        }
        let hadLog = (StateLoss.size(path + "-wal") ?? 0) > 0
        // Created 0600 here, never through a symlink; SQLite gives its -wal and -shm files the same mode.
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { Glibc.close(fd) }
        do {
            db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA journal_mode=WAL")
            try db.execute(durability == .full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
            // After a large snapshot the WAL file is truncated back rather than kept at its largest size.
            try db.execute("PRAGMA journal_size_limit=67108864")
            let check = try db.rows("PRAGMA quick_check").compactMap { $0.first?.string }
            guard check == ["ok"] else {
                throw SQLiteError(
                    code: 11, message: "integrity check failed: " + check.prefix(3).joined(separator: "; "))
            }
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS engine(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS sessions(
                    name TEXT PRIMARY KEY, seq INTEGER NOT NULL, revision INTEGER NOT NULL, state BLOB NOT NULL,
                    snapshot_revision INTEGER NOT NULL, tree BLOB NOT NULL, detached BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS batches(
                    session TEXT NOT NULL, revision INTEGER NOT NULL, ops BLOB NOT NULL,
                    PRIMARY KEY(session, revision)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS progress(
                    name TEXT PRIMARY KEY, seq INTEGER NOT NULL, revision INTEGER NOT NULL, state BLOB NOT NULL);
                INSERT OR IGNORE INTO engine(key, value) VALUES('format', \(Self.format));
                """)
            var format = try db.rows("SELECT value FROM engine WHERE key = 'format'").first?.first?.int
            if format == 1 {
                // Format 1 kept seq, revision and the durable parts in the snapshot's row, where `rows()` still
                // reads them for a session with no progress row yet (its first commit writes one). The number
                // goes up so that an older engine does not open the database: it would read that row's seq,
                // behind the progress row's.
                try db.execute("UPDATE engine SET value = 2 WHERE key = 'format'")
                format = 2
            }
            guard format == Self.format else {
                throw SQLiteError(
                    code: 0,
                    message:
                        "format \(format.map(String.init) ?? "?") is not the format this engine writes (\(Self.format))"
                )
            }
        } catch {
            lock.release()
            throw .state(
                "the state database \(path) cannot be used: \(error). Start with --recover to keep what is valid, or --state-dir none to start without it"
            )
        }
        do throws(EngineError) {
            let generation: Int
            do {
                generation = try db.rows("SELECT value FROM engine WHERE key = 'generation'").first?.first?.int ?? 0
            } catch { throw .state("the state database \(path) cannot be read: \(error)") }
            if loss == nil,
                let behind = StateLoss.behind(database: path, generation: generation, mark: mark, hadLog: hadLog)
            {
                guard recover else {
                    throw .state(
                        "\(behind.what). Acknowledged changes would be lost: refusing to start. Put the log back, or start with --recover to go on with what is left (the log then names every session and revision that came back)"
                    )
                }
                loss = behind
            }
            // From here on SQLite checkpoints only when told, so that each checkpoint raises the generation.
            db.watchLog()
            try startGeneration(after: max(generation, mark.generation))
        } catch {
            db.closeKeepingLog()
            lock.release()
            throw error
        }
    }

    /// Raises the generation in the database, then in the mark (in that order: a crash between them leaves the
    /// database ahead, which is no loss).
    private func startGeneration(after generation: Int) throws(EngineError) {
        do {
            try db.run("INSERT OR REPLACE INTO engine(key, value) VALUES('generation', ?)", .integer(generation + 1))
        } catch { throw .state("cannot write the state in \(path): \(error)") }
        var next = mark
        next.generation = generation + 1
        do { try next.write(directory, sync: true) } catch { throw .state("\(error)") }
        mark = next
    }

    /// Pages of write-ahead log after which the engine folds it into the database (SQLite's own default).
    static let checkpointPages = 1000

    func close() {
        db.close()
        lock.release()
    }

    /// Moves a damaged database aside (`--recover` when it cannot even be opened); returns the new name.
    static func setAside(directory: String) -> String? {
        let stamp = Int(Date().timeIntervalSince1970)
        var moved: String?
        for suffix in ["", "-wal", "-shm"] {
            let from = "\(directory)/\(fileName)\(suffix)"
            let to = "\(directory)/\(fileName).damaged-\(stamp)\(suffix)"
            if rename(from, to) == 0, suffix.isEmpty { moved = to }
        }
        return moved
    }

    // MARK: - Reading

    struct Row {
        var name: String
        var seq: Int
        var revision: Int
        var state: [UInt8]
        var snapshotRevision: Int
        var tree: [UInt8]
        var detached: [UInt8]
    }

    /// Every session's row, or only the one named.
    func rows(named name: String? = nil) throws(SQLiteError) -> [Row] {
        // The snapshot row's own seq, revision and state are those of the snapshot: progress has the latest.
        // The tree (the snapshot's bulk) is read by its row id, straight into its array (`SQLiteDatabase.blob`).
        let select = """
            SELECT s.name, COALESCE(p.seq, s.seq), COALESCE(p.revision, s.revision), COALESCE(p.state, s.state),
                s.snapshot_revision, s.rowid, s.detached
            FROM sessions s LEFT JOIN progress p ON p.name = s.name
            """
        let found: [[SQLiteValue]]
        if let name {
            found = try db.rows(select + " WHERE s.name = ?", .text(name))
        } else {
            found = try db.rows(select + " ORDER BY s.name")
        }
        var rows: [Row] = []
        for c in found {
            let tree = try c[5].int.map { rowid throws(SQLiteError) in
                try db.blob(table: "sessions", column: "tree", rowid: Int64(rowid))
            }
            rows.append(
                Row(
                    name: c[0].string ?? "", seq: c[1].int ?? -1, revision: c[2].int ?? -1, state: c[3].bytes ?? [],
                    snapshotRevision: c[4].int ?? -1, tree: tree ?? [], detached: c[6].bytes ?? []))
        }
        return rows
    }

    /// The logged batches of a session after its snapshot, in revision order.
    func batches(_ session: String, after revision: Int) throws(SQLiteError) -> [(revision: Int, ops: [UInt8])] {
        try db.rows(
            "SELECT revision, ops FROM batches WHERE session = ? AND revision > ? ORDER BY revision", .text(session),
            .integer(revision)
        )
        .map { ($0[0].int ?? -1, $0[1].bytes ?? []) }
    }

    /// Records what was read back, for the compaction rule.
    func noteRestored(_ name: String, snapshotBytes: Int, logBytes: Int) { sizes[name] = (snapshotBytes, logBytes) }

    // MARK: - Writing (inside the group's transaction)

    /// Writes what one request did to `host`: its logged batches (or a snapshot after a load, or once the log
    /// has outgrown the snapshot), then its seq, revision and durable parts.
    func save(_ host: SessionHost, records: [TreeRecord]) throws(SQLiteError) {
        try begin()
        let known = sizes[host.name]
        var size = known ?? (0, 0)
        // A load is the request's last tree change: its encoding is the world's now.
        var encoded: (tree: [UInt8], detached: [UInt8])?
        if case .load(let tree, let detached) = records.last { encoded = (tree, detached) }
        var needsSnapshot = known == nil || encoded != nil
        if !needsSnapshot {
            for case .apply(let revision, let ops) in records {
                try db.run(
                    "INSERT OR REPLACE INTO batches(session, revision, ops) VALUES(?, ?, ?)", .text(host.name),
                    .integer(revision), .blob(ops))
                size.log += ops.count
            }
            needsSnapshot = size.log > max(Self.minimumLogBytes, size.snapshot)
        }
        let state = SavedSessionState.text(host, profile: profileText(host))
        if needsSnapshot {
            let (tree, detached) = encoded ?? WorldSnapshot.encode(host.state.world)
            try db.run(
                """
                INSERT INTO sessions(name, seq, revision, state, snapshot_revision, tree, detached) VALUES(?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET seq = excluded.seq, revision = excluded.revision, state = excluded.state,
                    snapshot_revision = excluded.snapshot_revision, tree = excluded.tree, detached = excluded.detached
                """, .text(host.name), .integer(host.seq), .integer(host.revision), .blob(state),
                .integer(host.revision), .blob(tree), .blob(detached))
            try db.run("DELETE FROM batches WHERE session = ?", .text(host.name))
            size = (tree.count + detached.count, 0)
        }
        try db.run(
            """
            INSERT INTO progress(name, seq, revision, state) VALUES(?, ?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET seq = excluded.seq, revision = excluded.revision, state = excluded.state
            """, .text(host.name), .integer(host.seq), .integer(host.revision), .blob(state))
        sizes[host.name] = size
        hold(seq: host.seq, revision: host.revision)
    }

    /// Makes the mark hold `seq` and `revision` by the next commit.
    func hold(seq: Int, revision: Int) {
        if let raised = (pendingMark ?? mark).raised(toHold: seq, revision) { pendingMark = raised }
    }

    /// The text of `host`'s profile, written again only for a session that is not the one it was written for.
    private func profileText(_ host: SessionHost) -> [UInt8] {
        if let kept = profiles[host.name], kept.profile == host.state.profile { return kept.text }
        let text = WireEncoder.encodeBytes(host.state.profile)
        profiles[host.name] = (host.state.profile, text)
        return text
    }

    /// Writes the session whole: a snapshot of its world, no log.
    func saveSnapshot(_ host: SessionHost) throws(SQLiteError) {
        let encoded = WorldSnapshot.encode(host.state.world)
        try save(host, records: [.load(tree: encoded.tree, detached: encoded.detached)])
    }

    func delete(_ name: String) throws(SQLiteError) {
        try begin()
        try db.run("DELETE FROM sessions WHERE name = ?", .text(name))
        try db.run("DELETE FROM progress WHERE name = ?", .text(name))
        profiles[name] = nil
        try db.run("DELETE FROM batches WHERE session = ?", .text(name))
        sizes[name] = nil
    }

    /// Commits the group's transaction, if any write opened one (synchronous=FULL: fsynced before returning).
    func commit() throws(SQLiteError) {
        guard inTransaction else { return }
        // The ceiling first: once the commit is on disk its seqs may be published.
        if let pendingMark {
            try pendingMark.write(directory, sync: true)
            mark = pendingMark
            self.pendingMark = nil
        }
        inTransaction = false
        // Prepared once (`run` keeps its statements): `execute` parses the text again on every commit, and a
        // commit follows every tap.
        try db.run("COMMIT")
        foldLogIfDue()
    }

    /// After a commit, once the log is long: folds it into the database, then raises the generation. Neither
    /// can undo the commit before it, so a failure is not the commit's: both are tried again after the next
    /// one. (Until the generation is raised, a log lost meanwhile would go unnoticed.)
    private func foldLogIfDue() {
        if db.logPages >= Self.checkpointPages {
            do {
                try db.checkpoint()
                generationDue = true
            } catch {}
        }
        if generationDue, (try? startGeneration(after: mark.generation)) != nil { generationDue = false }
    }

    /// Abandons the group's writes (a write failed: none of the group's replies will say it succeeded).
    func rollback() {
        guard inTransaction else { return }
        inTransaction = false
        try? db.execute("ROLLBACK")
    }

    /// Abandons the group's writes after a failed write or commit, whether or not SQLite kept the transaction
    /// open (after a full disk it may have rolled it back itself).
    func abandon() {
        inTransaction = false
        try? db.execute("ROLLBACK")
    }

    /// Forgets what was noted about `name` while writing: its state on disk is read back afresh.
    func forget(_ name: String) {
        sizes[name] = nil
        profiles[name] = nil
    }

    private func begin() throws(SQLiteError) {
        guard !inTransaction else { return }
        try db.run("BEGIN IMMEDIATE")
        inTransaction = true
    }
}

extension StateStore {
    /// Copies into this (new, empty) store every session of the damaged database at `path` whose rows SQLite can
    /// still read whole — its snapshot, progress and logged batches — reading the tables without their indexes,
    /// which a damaged index would otherwise fail. Returns the sessions kept and, for the others, why not. The
    /// damaged file is only read.
    func salvage(from path: String) -> (kept: [String], lost: [String]) {
        guard let old = try? SQLiteDatabase(path: path, readOnly: true) else {
            return ([], ["the file cannot be opened"])
        }
        defer { old.closeKeepingLog() }
        let names: [String]
        do {
            names = try old.rows("SELECT name FROM sessions NOT INDEXED").compactMap { $0.first?.string }
        } catch {
            return ([], ["the list of sessions cannot be read: \(error)"])
        }
        var kept: [String] = []
        var lost: [String] = []
        for name in names {
            do {
                let session = try old.rows(
                    """
                    SELECT name, seq, revision, state, snapshot_revision, tree, detached FROM sessions NOT INDEXED
                    WHERE name = ?
                    """, .text(name))
                let progress = try old.rows(
                    "SELECT name, seq, revision, state FROM progress NOT INDEXED WHERE name = ?", .text(name))
                let batches = try old.rows("SELECT session, revision, ops FROM batches WHERE session = ?", .text(name))
                try begin()
                for row in session {
                    try db.run(
                        "INSERT INTO sessions VALUES(?, ?, ?, ?, ?, ?, ?)", row[0], row[1], row[2], row[3], row[4],
                        row[5], row[6])
                }
                for row in progress {
                    try db.run("INSERT INTO progress VALUES(?, ?, ?, ?)", row[0], row[1], row[2], row[3])
                }
                for row in batches { try db.run("INSERT INTO batches VALUES(?, ?, ?)", row[0], row[1], row[2]) }
                try commit()
                kept.append(name)
            } catch {
                rollback()
                lost.append("session \"\(name)\": \(error)")
            }
        }
        return (kept, lost)
    }
}
