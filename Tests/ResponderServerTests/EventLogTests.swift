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
