import Foundation
import Testing

@testable import ResponderServer

/// `SQLiteDatabase.run` keeps each literal statement prepared and finds it again by its text's address: the same
/// statement runs again with new values, another text is another statement, and a run that fails (its error
/// thrown, nothing written) does not keep the next run of the same statement from writing.
@Suite struct SQLiteStatementTests {
    static func database() throws -> (SQLiteDatabase, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let db = try SQLiteDatabase(path: directory.appendingPathComponent("t.db").path)
        try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
        return (db, directory.path)
    }

    @Test func aKeptStatementRunsAgainWithNewValuesAndAnotherTextIsAnotherStatement() throws {
        let (db, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for i in 0..<3 { try db.run("INSERT INTO t(k, v) VALUES(?, ?)", .text("k\(i)"), .integer(i)) }
        try db.run("UPDATE t SET v = v + 10 WHERE k = ?", .text("k1"))
        try db.run("UPDATE t SET v = v + 10 WHERE k = ?", .text("k2"))
        let rows = try db.rows("SELECT k, v FROM t ORDER BY k")
        #expect(rows == [[.text("k0"), .integer(0)], [.text("k1"), .integer(11)], [.text("k2"), .integer(12)]])
    }

    @Test func aRunThatFailsLeavesItsStatementReadyForTheNext() throws {
        let (db, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func insert(_ k: String, _ v: SQLiteValue) throws(SQLiteError) {
            try db.run("INSERT INTO t(k, v) VALUES(?, ?)", .text(k), v)
        }
        try insert("a", .integer(1))
        // Both fail at step, one on NOT NULL and one on the key.
        #expect(throws: SQLiteError.self) { try insert("b", .null) }
        #expect(throws: SQLiteError.self) { try insert("a", .integer(2)) }
        try insert("c", .integer(3))
        let rows = try db.rows("SELECT k, v FROM t ORDER BY k")
        #expect(rows == [[.text("a"), .integer(1)], [.text("c"), .integer(3)]])
    }

    /// A run reads its blobs where they are: each row holds the bytes bound in its own run, beside values of other
    /// kinds before and after them, and a run that fails leaves no blob bound for the next.
    @Test func aRunWritesTheBlobsBoundInItWhereverTheyStandAndAFailedOneLeavesNone() throws {
        let (db, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try db.execute("CREATE TABLE b(k TEXT PRIMARY KEY, first BLOB NOT NULL, n INTEGER, last BLOB NOT NULL)")
        let insert: StaticString = "INSERT INTO b(k, first, n, last) VALUES(?, ?, ?, ?)"
        let large = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try db.run(insert, .text("a"), .blob(large), .integer(1), .blob([7, 8]))
        #expect(throws: SQLiteError.self) { try db.run(insert, .text("a"), .blob([1]), .integer(2), .blob([2])) }
        #expect(throws: SQLiteError.self) { try db.run(insert, .text("c"), .blob([3]), .integer(3), .null) }
        try db.run(insert, .text("b"), .blob([]), .null, .blob(Array(large.reversed())))
        let rows = try db.rows("SELECT k, first, n, last FROM b ORDER BY k")
        #expect(rows.count == 2)
        #expect(rows.first == [.text("a"), .blob(large), .integer(1), .blob([7, 8])])
        #expect(rows.last == [.text("b"), .blob([]), .null, .blob(Array(large.reversed()))])
    }
}
