import Testing

@testable import ResponderServer

@Suite("The replay ring, bounded in events and bytes")
struct EventLogTests {
    func entry(_ seq: Int, bytes: Int) -> EventLog.Entry {
        EventLog.Entry(seq: seq, topic: Array("s/tree".utf8), body: Array(repeating: 0x20, count: bytes - 6))
    }

    @Test("the oldest events go first when the bytes are over the bound; seqs stay consecutive")
    func bytes() {
        var log = EventLog(capacity: 1000, maxBytes: 1000)
        for seq in 1...25 { log.append(entry(seq, bytes: 100)) }
        #expect(log.count == 10 && log.bytes == 1000 && log.oldestSeq == 16)
        #expect(log.entries(after: 15, limit: 100).map(\.seq) == Array(16...25))
    }

    @Test("the newest event is kept even when it alone is over the bound, and counts still bound the ring")
    func newestKept() {
        var log = EventLog(capacity: 3, maxBytes: 500)
        for seq in 1...5 { log.append(entry(seq, bytes: 100)) }
        #expect(log.count == 3 && log.oldestSeq == 3)
        log.append(entry(6, bytes: 2000))
        #expect(log.count == 1 && log.oldestSeq == 6 && log.bytes == 2000)
        log.append(entry(7, bytes: 100))
        #expect(log.count == 1 && log.oldestSeq == 7)
    }

    @Test(
        "rings sharing a budget stay under it together: the publishing ring drops its oldest, a quiet one keeps its own"
    )
    func sharedBudget() {
        let budget = ReplayBudget(maxBytes: 1500)
        var quiet = EventLog(capacity: 1000, maxBytes: 1000, budget: budget)
        var busy = EventLog(capacity: 1000, maxBytes: 1000, budget: budget)
        for seq in 1...8 { quiet.append(entry(seq, bytes: 100)) }
        for seq in 1...25 { busy.append(entry(seq, bytes: 100)) }
        #expect(quiet.count == 8 && busy.count == 7 && budget.bytes == 1500)
        #expect(busy.oldestSeq == 19)
        busy.leaveBudget()
        #expect(budget.bytes == 800)
    }
}

@Suite("The replay ring's storage grows with the events it holds")
struct EventLogGrowthTests {
    func entry(_ seq: Int) -> EventLog.Entry {
        EventLog.Entry(seq: seq, topic: Array("s/tree".utf8), body: [0x7b, 0x7d])
    }

    @Test("an empty ring allocates nothing; slots double as events come, never past the capacity")
    func grows() {
        var log = EventLog(capacity: 10_000)
        #expect(log.allocated == 0)
        log.append(entry(1))
        #expect(log.allocated == 16)
        for seq in 2...17 { log.append(entry(seq)) }
        #expect(log.allocated == 32 && log.count == 17)
        for seq in 18...12_000 { log.append(entry(seq)) }
        #expect(log.allocated == 10_000 && log.count == 10_000 && log.oldestSeq == 2001)
        #expect(log.entries(after: 11_995, limit: 100).map(\.seq) == Array(11_996...12_000))
    }

    @Test("events wrapped around the ring keep their order when it grows")
    func orderAcrossGrowth() {
        // Eight bytes an event: the byte bound keeps fifteen in sixteen slots, so the ring wraps without growing.
        var log = EventLog(capacity: 40, maxBytes: 15 * 8)
        for seq in 1...20 { log.append(entry(seq)) }
        #expect(log.count == 15 && log.allocated == 16)
        #expect(log.entries(after: 0, limit: 100).map(\.seq) == Array(6...20))
        // Six-byte events: more of them fit, so the wrapped ring fills and grows, its events kept in order.
        for seq in 21...40 {
            log.append(EventLog.Entry(seq: seq, topic: Array("s/tree".utf8), body: []))
            let held = log.entries(after: 0, limit: 100).map(\.seq)
            #expect(held == Array(held[0]...seq) && held.count == log.count)
        }
        #expect(log.allocated == 32 && log.count == 20 && log.oldestSeq == 21)
    }
}
