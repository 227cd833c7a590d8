import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// An event kept unwritten (`SessionHost.recordDeferred`) is written, head and all, only when its text is asked
/// for, and then says what it would have said when it was recorded.
@Suite struct DeferredEventTests {
    static func host() throws -> SessionHost {
        SessionHost(name: "s", state: SessionState(world: try DurabilityTests.world()), replayBuffer: 10)
    }

    static let cause = Cause(client: "c1", request: 7)

    @Test func aKeptEventIsWrittenAsTheSameEventWrittenAtOnce() throws {
        let kept = try Self.host(), written = try Self.host()
        let members: [(key: String, write: () -> [UInt8])] = [("trace", { Array(#"{"steps":[]}"#.utf8) })]
        let (keptEntry, none) = kept.recordDeferred(
            stream: "trace", epoch: "e1", cause: Self.cause, payload: [("change", "load")], deferred: members,
            minimumSize: 0, write: false)
        let (writtenEntry, text) = written.recordDeferred(
            stream: "trace", epoch: "e1", cause: Self.cause, payload: [("change", "load")], deferred: members,
            minimumSize: 0, write: true)
        #expect(none == nil)
        #expect(keptEntry.seq == 1 && writtenEntry.seq == 1)
        #expect(keptEntry.body == text)
        // What the ring counts for the unwritten head is no more than the head takes.
        #expect(keptEntry.size <= writtenEntry.size)
        #expect(keptEntry.size > keptEntry.topic.count + 60)
    }

    @Test func aKeptEventSaysTheRevisionAndSeqItWasRecordedAt() throws {
        let host = try Self.host()
        let before = host.revision
        let (entry, _) = host.recordDeferred(
            stream: "trace", epoch: "e1", cause: Self.cause, payload: [], deferred: [("trace", { Array("{}".utf8) })],
            minimumSize: 0, write: false)
        _ = try host.state.apply(
            [try GuardedOp(wire: ["op": "update", "id": "title", "set": ["alpha": 0.5]], index: 0)], ifRevision: nil,
            limits: .default)
        _ = host.record(stream: "trace", epoch: "e1", cause: Self.cause, payload: [])
        #expect(host.revision == before + 1 && host.seq == 2)
        let event = try JSONCodec.decode(String(decoding: entry.body, as: UTF8.self))
        #expect(event["seq"] == JSON(1))
        #expect(event["revision"] == JSON(before))
        #expect(event["cause"]?["client"] == "c1")
        #expect(event["cause"]?["request"] == JSON(7))
    }
}
