/// The last N published events of a session, for `trace.replay`: a fixed-capacity ring.
struct EventLog {
    struct Entry {
        var seq: Int
        var topic: [UInt8]
        var body: [UInt8]
    }

    private var ring: [Entry?]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int) { ring = Array(repeating: nil, count: max(1, capacity)) }

    var capacity: Int { ring.count }

    mutating func append(_ entry: Entry) {
        if count < ring.count {
            ring[(start + count) % ring.count] = entry
            count += 1
        } else {
            ring[start] = entry
            start = (start + 1) % ring.count
        }
    }

    /// The oldest seq still held, or nil when empty.
    var oldestSeq: Int? { count == 0 ? nil : ring[start]!.seq }

    /// Entries with seq > `after`, oldest first, at most `limit`.
    func entries(after: Int, limit: Int) -> [Entry] {
        guard let oldest = oldestSeq else { return [] }
        // Seqs in the ring are consecutive, so the first wanted entry's position is arithmetic.
        let skip = max(0, after + 1 - oldest)
        guard skip < count else { return [] }
        let n = min(count - skip, limit)
        return (0..<n).map { ring[(start + skip + $0) % ring.count]! }
    }
}
