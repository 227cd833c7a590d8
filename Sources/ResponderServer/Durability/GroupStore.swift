import ResponderCore

/// What serving requests needs of the durable store: each request's writes inside the group's transaction,
/// then one commit, or a rollback that abandons them. `StateStore` (SQLite) is the engine's; tests give
/// `RequestServer` a store in memory that can be told to fail.
protocol GroupStore: AnyObject {
    /// Where the state is kept, for the message that stops the engine when it cannot be saved.
    var path: String { get }
    func save(_ host: SessionHost, records: [TreeRecord]) throws(SQLiteError)
    func delete(_ name: String) throws(SQLiteError)
    func commit() throws(SQLiteError)
    func rollback()
    /// Abandons the open transaction, whatever state a failed write or commit left it in.
    func abandon()
    /// The sessions named as last committed (a name without one is absent): what a group that could not be saved
    /// leaves them as.
    func committed(_ names: Set<String>, replayBuffer: Int, replayBytes: Int) throws(EngineError) -> [String:
        SessionHost]
}

extension StateStore: GroupStore {}
