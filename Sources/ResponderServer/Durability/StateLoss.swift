import Foundation
import Glibc

/// Acknowledged changes that a start would lose without noticing, found before SQLite opens the database: SQLite
/// itself treats a missing or empty file as a new database and a lost or damaged log as a shorter history.
struct StateLoss {
    /// One sentence naming the file and what happened to it.
    let what: String
    /// The mark as the engine that wrote the lost changes left it: the ceilings restored sessions continue above.
    let ceiling: StateMark?
    /// Whether the log is to be kept aside (it is damaged, or has no database to belong to).
    let keepLog: Bool

    /// What the files show before SQLite opens them: a database missing or empty, a log damaged.
    static func find(database path: String, mark: StateMark?) -> StateLoss? {
        let log = path + "-wal"
        let databaseSize = size(path)
        let logSize = size(log)
        if databaseSize ?? 0 == 0 {
            // A first start has neither; one with a mark or a log had a database here.
            guard mark != nil || (logSize ?? 0) > 0 else { return nil }
            return StateLoss(
                what: "the state database \(path) is \(databaseSize == nil ? "missing" : "empty")"
                    + (mark != nil ? ", but this directory held sessions (\(StateMark.fileName))" : "")
                    + ((logSize ?? 0) > 0 ? ", beside a write-ahead log of \(logSize!) bytes" : ""),
                ceiling: mark, keepLog: (logSize ?? 0) > 0)
        }
        if let damage = LogCheck.damage(log) { return StateLoss(what: damage, ceiling: mark, keepLog: true) }
        return nil
    }

    /// What the database read back shows: an older generation than the mark's (`StateMark`).
    static func behind(database path: String, generation: Int, mark: StateMark?, hadLog: Bool) -> StateLoss? {
        guard let mark, generation < mark.generation else { return nil }
        let log = path + "-wal"
        let state = hadLog ? "was cut short" : "is missing"
        return StateLoss(
            what:
                "the write-ahead log \(log) \(state): the database reads back at generation \(generation), but the engine that last used it reached generation \(mark.generation), with the acknowledged changes since",
            ceiling: mark, keepLog: false)
    }

    /// With `--recover`: keeps a copy of a log SQLite is about to cut short or cannot use, and moves a log with
    /// no database away from the new one. Nothing is deleted.
    static func keepCopies(database path: String, loss: StateLoss) {
        guard loss.keepLog else { return }
        let log = path + "-wal"
        let aside = "\(log).damaged-\(Int(Date().timeIntervalSince1970))"
        if size(path) ?? 0 == 0 {
            rename(log, aside)
            unlink(path + "-shm")
        } else {
            try? FileManager.default.copyItem(atPath: log, toPath: aside)
        }
    }

    static func size(_ path: String) -> Int? {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_size) : nil
    }
}
