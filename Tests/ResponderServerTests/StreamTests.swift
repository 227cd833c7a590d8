import Foundation
import ResponderClient
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing

@testable import ResponderServer

/// Several tools on one session, from Swift through the client library: joins, gaps, causality, concurrency.
@Suite struct StreamTests {
    func update(_ c: ResponderConnection, _ id: String, alpha: Double, ifNodeRevision: Int? = nil) throws -> JSON {
        var op: JSON = ["op": "update", "id": .string(id), "set": ["alpha": JSON(alpha)]]
        if let ifNodeRevision { op = op.setting("ifNodeRevision", JSON(ifNodeRevision)) }
        return try c.call("tree.apply", ["ops": [op]])
    }

    @Test func aFollowerThatJoinsDuringWritesMissesNothingAndDuplicatesNothing() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let done = DispatchSemaphore(value: 0)
        let writing = DispatchSemaphore(value: 0)
        let joined = DispatchSemaphore(value: 0)
        let address = try t.address
        let writes = 300
        let joinAfter = 50
        // The writer starts before the follower joins and keeps going while it does. However slow the machine,
        // the join falls inside the writes: it starts after `joinAfter` of them, and the last one waits for it.
        Thread.detachNewThread {
            defer { done.signal() }
            guard let w = try? ResponderConnection(address: address, timeoutSeconds: patienceSeconds) else { return }
            for i in 0..<writes {
                if i == joinAfter { writing.signal() }
                if i == writes - 1 { _ = joined.wait(timeout: .now() + patienceSeconds) }
                _ = try? w.call(
                    "tree.apply", ["ops": [["op": "update", "id": "A", "set": ["alpha": JSON(Double(i % 10) / 10)]]]])
            }
        }
        try #require(writing.wait(timeout: .now() + patienceSeconds) == .success, "the writer did not start")
        let follower = try SessionFollower(connection: try t.connect(), session: "default")
        joined.signal()
        var startSeq: Int?
        var seqs: [Int] = []
        while startSeq == nil || (seqs.last ?? startSeq!) < writes {
            guard let item = try follower.next(timeoutMs: patienceMs) else { break }
            switch item {
            case .snapshot(let s): startSeq = s.seq
            case .event(let e): seqs.append(e.seq ?? -1)
            default: break
            }
        }
        done.wait()
        let start = try #require(startSeq)
        try #require(start >= joinAfter && start < writes, "the follower joined at seq \(start), not during the writes")
        #expect(seqs == Array((start + 1)...writes))
    }

    @Test func aFollowerRecoversEventsItMissedFromTheReplayRing() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let c = try t.connect()
        _ = try update(c, "A", alpha: 0.5)
        _ = try update(c, "A", alpha: 0.6)
        // Joining with --since replays history first, as after a subscriber restart that held seq 1.
        let follower = try SessionFollower(connection: try t.connect(), session: "default", since: 1)
        var seqs: [Int] = []
        var recovered = 0
        func take(_ item: SessionFollower.Item) {
            if case .event(let e) = item { seqs.append(e.seq ?? -1) }
            if case .recovered(_, _, let n) = item { recovered += n }
        }
        // The replayed history, then a tick: from then on the follower's subscription is live, so the next
        // event comes live (a lost one would be recovered and counted).
        for item in try follower.itemsUntilLive() { take(item) }
        _ = try update(c, "A", alpha: 0.7)
        while seqs.count < 2, let item = try follower.next(timeoutMs: patienceMs) { take(item) }
        #expect(seqs == [2, 3])
        #expect(recovered == 1)
        #expect(follower.replayRefused == nil)
    }

    @Test func aFollowerResumingFromZeroASessionThatBeganWithAWorldFileTakesASnapshot() throws {
        // The world the engine started with is in no event (Protocol/README.md 14.1): replaying from 0 would
        // build an empty mirror, so the engine refuses and the follower starts from a snapshot instead.
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let c = try t.connect()
        _ = try update(c, "A", alpha: 0.5)
        let follower = try SessionFollower(connection: try t.connect(), session: "default", since: 0)
        guard case .snapshot(let s)? = try follower.next(timeoutMs: patienceMs) else {
            Issue.record("expected a snapshot first")
            return
        }
        #expect(s.seq == 1)
        #expect(s.tree["children"]?.arrayValue?.count == 2)
        #expect(follower.replayRefused?.name == .replayExpired)
        // A session made by session.create holds its world in its first event: replaying from 0 works.
        _ = try c.call("session.create", ["session": "made", "tree": Fixtures.world["tree"]!])
        let made = try SessionFollower(connection: try t.connect(), session: "made", since: 0)
        guard case .recovered(0, 1, 1)? = try made.next(timeoutMs: patienceMs) else {
            Issue.record("expected the load event to be replayed")
            return
        }
        #expect(made.replayRefused == nil)
    }

    @Test func aReplySeqRangeCoversExactlyTheEventsOfItsRequest() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let me = try t.connect()
        let other = try t.connect()
        _ = try me.call("client.hello", ["name": "me"])
        let sub = try t.subscribe(["default/"])
        _ = try update(other, "A", alpha: 0.1)
        let reply = try me.call("event.tap", ["point": [20, 410]])  // the button B: a trace event
        _ = try update(other, "A", alpha: 0.2)
        let range = (reply["seqRange"]?.arrayValue ?? []).compactMap { $0.intValue }
        try #require(range.count == 2)
        var mine: [Int] = []
        for _ in 0..<(2 + range[1] - range[0] + 1) {
            let e = try #require(try sub.nextSessionEvent())
            if e.body["cause"]?["client"] == "me" { mine.append(e.seq!) }
        }
        #expect(mine == Array(range[0]...range[1]))
    }

    @Test func ifNodeRevisionLetsUnrelatedEditsThroughAndOneOfTwoRivalsWin() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let a = try t.connect()
        let b = try t.connect()
        let revA = try #require(try a.call("tree.get", ["id": "A"])["tree"]?["revision"]?.intValue)
        let revB = try #require(try b.call("tree.get", ["id": "B"])["tree"]?["revision"]?.intValue)
        _ = try update(a, "A", alpha: 0.3, ifNodeRevision: revA)
        _ = try update(b, "B", alpha: 0.3, ifNodeRevision: revB)  // no false conflict from A's edit
        let current = try #require(try a.call("tree.get", ["id": "A"])["tree"]?["revision"]?.intValue)
        let winner = try update(a, "A", alpha: 0.4, ifNodeRevision: current)
        do {
            _ = try update(b, "A", alpha: 0.9, ifNodeRevision: current)
            Issue.record("the second edit of the same node revision won too")
        } catch let error as ClientError {
            #expect(error.rpcName == .revisionConflict)
            #expect(error.rpcError?.detail("id") == "A")
            #expect(error.rpcError?.detail("revision") == winner["revision"])
        }
    }

    @Test func aSecondClientCannotInterleaveOnALiveTouch() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let a = try t.connect()
        let b = try t.connect()
        _ = try a.call("event.touch", ["touches": [["touch": 1, "phase": "began", "point": [50, 50]]]])
        do {
            _ = try b.call("event.touch", ["touches": [["touch": 1, "phase": "moved", "point": [60, 60]]]])
            Issue.record("expected TOUCH_IN_USE")
        } catch {
            #expect(error.rpcName == .touchInUse)
        }
        _ = try a.call("event.touch", ["touches": [["touch": 1, "phase": "ended", "point": [60, 60]]]])
        _ = try b.call("event.touch", ["touches": [["touch": 1, "phase": "began", "point": [60, 60]]]])
        let live = try b.call("session.snapshot")["liveTouches"]?.arrayValue
        #expect(live?.count == 1)
    }

    @Test func ticksCarryEachSessionsLastSeq() throws {
        let t = try TestEngine(world: Fixtures.world, tickMilliseconds: 50)
        defer { t.stop() }
        let c = try t.connect()
        _ = try update(c, "A", alpha: 0.5)
        let sub = try t.subscribe([])
        let tick = try #require(try sub.next { $0.topic == "$sys/tick" })
        #expect(tick.body["sessions"]?["default"] == 1)
    }

    @Test func aFollowerOfOneStreamSeesNoFalseGapsFromTheOthers() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let c = try t.connect()
        let follower = try SessionFollower(connection: try t.connect(), session: "default", streams: [.trace])
        var recovered = 0
        // Live first (see itemsUntilLive): a recovery must come from a false gap, not from a lost event.
        for item in try follower.itemsUntilLive() { if case .recovered = item { recovered += 1 } }
        _ = try update(c, "A", alpha: 0.5)  // seq 1: tree
        _ = try c.call("event.tap", ["point": [20, 410]])  // seq 2: trace
        var events: [EngineEvent] = []
        while events.isEmpty, let item = try follower.next(timeoutMs: patienceMs) {
            if case .event(let e) = item { events.append(e) }
            if case .recovered = item { recovered += 1 }
        }
        #expect(events.map(\.stream) == ["trace"])
        #expect(events.first?.seq == 2)
        #expect(recovered == 0)
        #expect(follower.lastSeq == 2)
    }

    /// The flood, from Swift: a follower that stops reading loses events at the engine's high-water mark
    /// (kept small here so the test is quick), then recovers every one of them and ends in the engine's state.
    @Test(
        .tags(.slow),
        arguments: [(replayBuffer: 50_000, expectResnapshot: false), (replayBuffer: 50, expectResnapshot: true)])
    func slowAStalledFollowerRecoversFromAFlood(replayBuffer: Int, expectResnapshot: Bool) throws {
        let t = try TestEngine(
            world: Fixtures.world, replayBuffer: replayBuffer, tickMilliseconds: 100, publishHighWaterMark: 20)
        defer { t.stop() }
        let follower = try SessionFollower(connection: try t.connect(), session: "default", receiveHighWaterMark: 20)
        guard case .snapshot = try follower.next(timeoutMs: patienceMs) else {
            Issue.record("no snapshot first"); return
        }
        let writer = try t.connect()
        let flood = 20_000
        for i in 0..<flood { _ = try update(writer, "A", alpha: Double(i % 100) / 100) }
        var last = 0
        var gapless = true
        var recovered = 0
        var resnapshots = 0
        while last < flood, let item = try follower.next(timeoutMs: patienceMs) {
            switch item {
            case .event(let e):
                if e.seq != last + 1 { gapless = false }
                last = e.seq ?? last
            case .recovered(_, _, let n): recovered += n
            case .snapshot(let s):
                resnapshots += 1
                last = s.seq
            case .system: break
            }
        }
        #expect(last == flood)
        #expect(follower.lastSeq == flood)
        if expectResnapshot {
            #expect(resnapshots >= 1, "a ring of 50 cannot hold what was missed")
        } else {
            #expect(gapless)
            #expect(recovered > 0, "the flood should have overrun the high-water mark of 20")
            #expect(resnapshots == 0)
        }
    }
}
