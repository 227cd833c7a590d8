import CSQLite
import Glibc
import ResponderLocal

/// `state.mark`, beside the database and outside it: what a lost database or write-ahead log cannot take with it.
///
/// - `seq` and `revision` are ceilings: no session kept in this directory ever published a seq or reached a
///   revision as high. They are raised a block at a time, before the commit that would pass them, so the
///   file is written once per `block` events rather than once per commit. After a loss, restored sessions
///   continue above the ceilings: a subscriber sees a gap (and resynchronises), never a seq it already has.
/// - `generation` is the database's own `generation` as it was when the write-ahead log last started afresh. The
///   engine raises it in the database, then here, at every start and after every checkpoint (it runs them
///   itself), so the database file alone always holds an older generation than the mark while the log holds
///   changes the file does not. A database read back (log included) at an older generation than the mark lost
///   its log, or the end of it. A checkpoint by anyone (a clean close, the sqlite3 shell) loses nothing.
///
/// Its presence also says that this directory has held a database: one that is now missing or empty was lost.
struct StateMark: Equatable {
    static let fileName = "state.mark"
    static let block = 1 << 16

    var seq = 0
    var revision = 0
    var generation = 0

    static func path(_ directory: String) -> String { "\(directory)/\(fileName)" }

    /// The mark in `directory`; nil when there is none. A mark that cannot be read is an error: the start must not
    /// go on as if the directory had no history.
    static func read(_ directory: String) throws(EngineError) -> StateMark? {
        let path = path(directory)
        let bytes: [UInt8]
        do { bytes = try OwnedFile.contents(path, what: "state mark") } catch {
            if error.isMissing { return nil }
            throw .state("\(error)")
        }
        var mark = StateMark()
        var seen = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]), value >= 0 else { continue }
            switch parts[0] {
            case "seq": mark.seq = value
            case "revision": mark.revision = value
            case "generation": mark.generation = value
            default: continue
            }
            seen.insert(String(parts[0]))
        }
        guard seen.isSuperset(of: ["seq", "revision", "generation"]) else {
            throw .state(
                "the state mark \(path) is damaged (it must hold seq, revision and generation); move it aside to start, knowing that a lost database or log can then go unnoticed"
            )
        }
        return mark
    }

    /// Replaces the mark whole (a new file renamed over the old one, so a crash leaves one or the other).
    func write(_ directory: String, sync: Bool) throws(SQLiteError) {
        let path = Self.path(directory)
        let temporary = path + ".new"
        unlink(temporary)
        let text = "responder state mark\nseq \(seq)\nrevision \(revision)\ngeneration \(generation)\n"
        do { try OwnedFile.create(temporary, Array(text.utf8), what: "state mark") } catch {
            let full = errno == ENOSPC || errno == EDQUOT
            unlink(temporary)
            throw SQLiteError(code: full ? SQLITE_FULL : SQLITE_IOERR, message: "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SQLiteError(code: SQLITE_IOERR, message: "cannot replace the state mark \(path): \(reason)")
        }
        if sync {
            let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                Glibc.close(fd)
            }
        }
    }

    /// The mark raised to hold `seq` and `revision` with a block to spare; nil when it already holds them. Every
    /// value held stays strictly below the ceiling, so the ceiling itself is one no session has reached.
    func raised(toHold seq: Int, _ revision: Int) -> StateMark? {
        guard seq >= self.seq || revision >= self.revision else { return nil }
        var next = self
        next.seq = max(self.seq, seq + Self.block)
        next.revision = max(self.revision, revision + Self.block)
        return next
    }
}
