import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing

@testable import ResponderServer

/// Captures what the engine publishes, in order.
final class CapturingSink: EventSink {
    var events: [(topic: String, body: JSON)] = []
    func send(topic: [UInt8], body: [UInt8]) {
        events.append((String(decoding: topic, as: UTF8.self), (try? JSONCodec.decode(body)) ?? .null))
    }
}

/// The request pipeline in memory, as swift-nio's EmbeddedChannel tests a pipeline: bytes in, bytes out,
/// events captured; no sockets, no threads.
struct EmbeddedEngine {
    let sink = CapturingSink()
    let processor: RequestProcessor
    private static let client: [UInt8] = Array("tool-1".utf8)

    init(world: JSON? = Fixtures.world) throws {
        let config = EngineConfig(
            name: "embedded", directory: "/nonexistent", rpcEndpoint: "inproc://rpc", eventsEndpoint: "inproc://events",
            initialWorld: world)
        processor = RequestProcessor(state: try EngineState(config: config, sink: sink, now: Date()))
    }

    /// Sends raw request text; returns the raw reply text (nil for a notification).
    func send(_ text: String) -> String? {
        processor.process(Array(text.utf8), from: Self.client, now: Date()).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Sends a typed request; returns its typed result, or the error.
    func send<R: RequestType>(_ request: R, id: Int = 1) throws -> Result<R.Response, RPCError> {
        let body = JSONCodec.encode(
            RPCRequest(id: JSON(id), method: R.method, params: WireEncoder.encode(request)).json)
        let reply = try JSONCodec.decode(processor.process(body, from: Self.client, now: Date())!)
        switch RPCResponse.read(reply) {
        case .success(let result): return .success(try WireDecoder.decode(R.Response.self, from: result, strict: false))
        case .failure(let error): return .failure(error)
        }
    }
}

@Suite("RequestProcessor in memory")
struct RequestProcessorTests {
    @Test("a tap comes back typed, and its trace and focus are published in order with the reply's seq range")
    func tapPublishesTraceThenFocus() throws {
        let engine = try EmbeddedEngine()
        let reply = try engine.send(TapRequest(session: nil, point: Point(20, 20))).get()
        let began = try #require(reply.base.outcome.deliveries.first)
        #expect(began.phase == .began && began.view == "A")
        let events = engine.sink.events.filter { !$0.topic.hasPrefix("$sys/") }
        #expect(events.map(\.topic) == ["default/trace"])
        #expect(events[0].body["seq"]?.intValue == reply.seq && reply.seqRange == [reply.seq, reply.seq])
        // The published trace is the reply's trace, outcome included.
        #expect(events[0].body["trace"] == WireEncoder.encode(reply.base.traceBody))
    }

    @Test("bytes in, bytes out: a typo is INVALID_PARAMS naming the field, and nothing is published")
    func unknownFieldIsNamed() throws {
        let engine = try EmbeddedEngine()
        let before = engine.sink.events.count
        let text = try #require(
            engine.send(#"{"jsonrpc":"2.0","id":7,"method":"hitTest","params":{"point":[1,2],"pointt":1}}"#))
        let reply = try JSONCodec.decode(text)
        #expect(reply["id"] == 7)
        #expect(reply["error"]?["data"]?["name"] == "INVALID_PARAMS")
        #expect(reply["error"]?["data"]?["field"] == "pointt")
        #expect(engine.sink.events.count == before)
    }

    @Test(
        "H1 a result written inside its envelope is the core's reply as it is: the id as written, the traced and untraced hitTest, a notification unanswered"
    )
    func resultsWrittenInTheirEnvelope() throws {
        let engine = try EmbeddedEngine()
        var state = SessionState()
        _ = try state.load(tree: NodeTree(wire: Fixtures.world["tree"]!, path: "tree"), limits: .default)
        for point in [Point(20, 20), Point(-5, -5)] {  // a view answers; no window does (the trailing H1 discard)
            let expected = String(decoding: state.hitTestReply(at: point), as: UTF8.self)
            let p = "[\(Int(point.x)),\(Int(point.y))]"
            #expect(
                engine.send(#"{"jsonrpc":"2.0","id":1.50,"method":"hitTest","params":{"point":\#(p)}}"#)
                    == #"{"jsonrpc":"2.0","id":1.50,"result":\#(expected)}"#)
            let untraced = String(decoding: state.hitTestOutcome(at: point).untracedReply, as: UTF8.self)
            #expect(
                engine.send(#"{"jsonrpc":"2.0","id":"u","method":"hitTest","params":{"point":\#(p),"trace":"none"}}"#)
                    == #"{"jsonrpc":"2.0","id":"u","result":\#(untraced)}"#)
            #expect(engine.send(#"{"jsonrpc":"2.0","method":"hitTest","params":{"point":\#(p)}}"#) == nil)
        }
        // A dispatch's reply without its trace: the published event's outcome, with the reply's seq.
        let text = try #require(
            engine.send(#"{"jsonrpc":"2.0","id":2,"method":"event.tap","params":{"point":[20,20],"trace":"none"}}"#))
        let reply = try JSONCodec.decode(text)
        let event = try #require(engine.sink.events.last { $0.topic == "default/trace" })
        #expect(reply["result"]?["deliveries"] == event.body["trace"]?["outcome"]?["deliveries"])
        #expect(reply["result"]?["seq"] == event.body["seq"] && reply["result"]?["trace"] == nil)
        #expect(engine.send(#"{"jsonrpc":"2.0","method":"event.tap","params":{"point":[20,20]}}"#) == nil)
    }

    @Test("a wrong type names its path inside arrays; a notification gets no reply")
    func typeErrorsNameTheirPath() throws {
        let engine = try EmbeddedEngine()
        let request =
            #"{"jsonrpc":"2.0","id":1,"method":"event.touch","params":{"touches":[{"touch":"t","phase":"began","point":[1,1]},{"touch":"t","phase":7}]}}"#
        let reply = try JSONCodec.decode(try #require(engine.send(request)))
        #expect(reply["error"]?["data"]?["field"] == "touches[1].phase")
        #expect(engine.send(#"{"jsonrpc":"2.0","method":"engine.info"}"#) == nil)
    }

    @Test("T1 a failed touch request changes nothing: the began before the bad entry is not live")
    func failedBatchChangesNothing() throws {
        let engine = try EmbeddedEngine()
        let result = try engine.send(
            TouchRequest(
                session: nil,
                touches: [
                    TouchInput(touch: "u", phase: .began, point: Point(1, 1)), TouchInput(touch: "zz", phase: .ended)
                ]))
        guard case .failure(let error) = result else { Issue.record("expected an error"); return }
        #expect(error.name == .touchNotFound && error.detail("index") == 1)
        let snapshot = try engine.send(SessionSnapshotRequest(session: nil)).get()
        #expect(snapshot.liveTouches.isEmpty)
    }

    @Test("F4 window.makeKey publishes the ops it made as a client would write them")
    func makeKeyPublishesItsOps() throws {
        let engine = try EmbeddedEngine()
        let reply = try engine.send(MakeKeyRequest(session: nil, id: "W")).get()
        #expect(reply.base.outcome.key == "W" && reply.revision != nil)
        let tree = try #require(engine.sink.events.last { $0.topic == "default/tree" })
        #expect(tree.body["ops"] == [["op": "update", "id": "W", "set": ["key": true]]])
    }
}

@Suite("Clients as requests find them")
struct ClientTableTests {
    private func listed(_ p: RequestProcessor, session: String, by asker: [UInt8]) throws -> [String] {
        let body = Array(
            #"{"jsonrpc":"2.0","id":1,"method":"session.clients","params":{"session":"\#(session)"}}"#.utf8)
        let reply = try JSONCodec.decode(try #require(p.process(body, from: asker, now: Date())))
        return try #require(reply["result"]?["clients"]?.arrayValue).compactMap { $0["client"]?.stringValue }
    }

    private func first(_ p: RequestProcessor, session: String, from client: [UInt8]) throws {
        let body = Array(
            #"{"jsonrpc":"2.0","id":2,"method":"responder.first","params":{"session":"\#(session)"}}"#.utf8)
        let reply = try JSONCodec.decode(try #require(p.process(body, from: client, now: Date())))
        #expect(reply["error"] == nil, "\(reply)")
    }

    @Test("a client forgotten for idleness is a client again at its next request; each session it addresses lists it")
    func lastClientShortcutFollowsTheTable() throws {
        let config = EngineConfig(
            name: "clients", directory: "/nonexistent", rpcEndpoint: "inproc://rpc", eventsEndpoint: "inproc://events")
        let state = try EngineState(config: config, sink: CapturingSink(), now: Date())
        let p = RequestProcessor(state: state)
        // Routing ids of the form libzmq assigns: their client ids are shown permuted (GeneratedRoutingID).
        let a: [UInt8] = [0, 1, 2, 3, 4], b: [UInt8] = [0, 9, 9, 9, 9]
        let shownA = GeneratedRoutingID.shown(a).map { String(format: "%02x", $0) }.joined()
        let shownB = GeneratedRoutingID.shown(b).map { String(format: "%02x", $0) }.joined()
        let create = Array(#"{"jsonrpc":"2.0","id":3,"method":"session.create","params":{"session":"other"}}"#.utf8)
        _ = p.process(create, from: b, now: Date())

        // Alternating sessions, then the same one twice: each must list the client.
        for s in ["default", "other", "default", "default"] { try first(p, session: s, from: a) }
        #expect(try listed(p, session: "default", by: b).contains(shownA))
        #expect(try listed(p, session: "other", by: b).contains(shownA))

        try first(p, session: "default", from: a)
        state.forgetIdleClients(now: Date().addingTimeInterval(2 * config.clientIdleSeconds))
        #expect(state.clients.isEmpty)
        // The same connection again, right after it was forgotten: it must be back in the table.
        try first(p, session: "default", from: a)
        #expect(state.clients[a] != nil)
        #expect(try Set(listed(p, session: "default", by: b)) == [shownA, shownB])
    }
}
