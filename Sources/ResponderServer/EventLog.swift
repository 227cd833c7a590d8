/// Bytes of events held by every session's replay ring together, against `--replay-bytes-total`: shared by the
/// rings, on the engine thread.
final class ReplayBudget {
    let maxBytes: Int
    fileprivate(set) var bytes = 0

    init(maxBytes: Int) { self.maxBytes = maxBytes }
}

/// The last N published events of a session, for `trace.replay`: a ring of at most `capacity` events, also bounded
/// in bytes (`--replay-bytes`, and with the other sessions' rings `--replay-bytes-total`): the oldest events go
/// first, but the newest is always kept. Its storage grows with the events it holds, doubling up to `capacity`:
/// a thousand idle sessions do not each hold room for `--replay-buffer` events they never publish.
struct EventLog {
    struct Entry {
        var seq: Int
        var topic: [UInt8]
        var text: EventText
        /// The event as published (written now if it was kept unwritten).
        var body: [UInt8] { text.bytes }
        /// Bytes it counts against the ring's budget: a kept-unwritten event counts at least what its text would.
        var size: Int { topic.count + text.size }

        init(seq: Int, topic: [UInt8], body: [UInt8]) {
            self.init(seq: seq, topic: topic, text: .bytes(body))
        }

        init(seq: Int, topic: [UInt8], text: EventText) {
            self.seq = seq
            self.topic = topic
            self.text = text
        }
    }

    /// Slots in use wrap around from `start`; grown (never past `capacity`) only when every slot holds an event.
    private var ring: [Entry?] = []
    private var start = 0
    private(set) var count = 0
    /// Bytes of the topics and bodies held.
    private(set) var bytes = 0
    let maxBytes: Int
    /// Shared with the other sessions' rings; nil: no bound on them together.
    private(set) var budget: ReplayBudget?

    /// The most events held (`--replay-buffer`).
    let capacity: Int

    init(capacity: Int, maxBytes: Int = .max, budget: ReplayBudget? = nil) {
        self.capacity = max(1, capacity)
        self.maxBytes = maxBytes
        self.budget = budget
    }

    /// Counts this ring against `budget` from now on.
    mutating func share(_ budget: ReplayBudget) {
        leaveBudget()
        budget.bytes += bytes
        self.budget = budget
    }

    /// Gives this ring's bytes back to the budget, for a session that goes.
    mutating func leaveBudget() {
        budget?.bytes -= bytes
        budget = nil
    }

    /// Slots allocated now: at most `capacity`.
    var allocated: Int { ring.count }

    mutating func append(_ entry: Entry) {
        if count == ring.count {
            if ring.count < capacity { grow() } else { dropOldest() }
        }
        ring[(start + count) % ring.count] = entry
        count += 1
        bytes += entry.size
        budget?.bytes += entry.size
        while bytes > maxBytes, count > 1 { dropOldest() }
        // Over the total, the session that publishes gives up its oldest events: one that stays quiet keeps its own.
        while let budget, budget.bytes > budget.maxBytes, count > 1 { dropOldest() }
    }

    /// Twice the slots (16 at first, `capacity` at most), the events moved to the front in order.
    private mutating func grow() {
        let slots = min(capacity, max(16, ring.count * 2))
        guard start != 0 else {
            // Already in order (no event dropped yet): the slots are added in place, the events moved with the
            // storage rather than each copied and the old copy released.
            ring.append(contentsOf: repeatElement(nil, count: slots - ring.count))
            return
        }
        var larger = [Entry?](repeating: nil, count: slots)
        for i in 0..<count { larger[i] = ring[(start + i) % ring.count] }
        ring = larger
        start = 0
    }

    private mutating func dropOldest() {
        bytes -= ring[start]!.size
        budget?.bytes -= ring[start]!.size
        ring[start] = nil
        start = (start + 1) % ring.count
        count -= 1
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
