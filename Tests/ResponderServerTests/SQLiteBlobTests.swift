import Foundation
import Testing

@testable import ResponderServer

/// `SQLiteDatabase.blob` reads a whole blob by its row id, as a query of its column reads it: a blob over many
/// pages byte for byte, an empty one, and an error naming the row where there is none.
@Suite struct SQLiteBlobTests {
    @Test func aBlobReadByItsRowIDEqualsTheQueriedColumn() throws {
        let (db, directory) = try SQLiteStatementTests.database()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try db.execute("CREATE TABLE b(name TEXT PRIMARY KEY, data BLOB NOT NULL)")
        // Three megabytes: hundreds of overflow pages.
        var generator = SystemRandomNumberGenerator()
        let large = (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try db.run("INSERT INTO b(name, data) VALUES(?, ?)", .text("large"), .blob(large))
        try db.run("INSERT INTO b(name, data) VALUES(?, ?)", .text("empty"), .blob([]))
        for name in ["large", "empty"] {
            let found = try db.rows("SELECT rowid, data FROM b WHERE name = ?", .text(name))
            let rowid = try #require(found.first?[0].int)
            let read = try db.blob(table: "b", column: "data", rowid: Int64(rowid))
            #expect(read == (found[0][1].bytes ?? []), "\(name)")
            #expect(read.count == (name == "large" ? large.count : 0))
        }
        let error = #expect(throws: SQLiteError.self) { try db.blob(table: "b", column: "data", rowid: 999) }
        #expect(error?.description.contains("b.data of row 999") == true)
    }
}
