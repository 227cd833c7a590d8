import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// `trace: "none"` (Protocol 1.8, 12.2) through the request pipeline, bytes in and out: the light reply is the
/// full one's bytes without the members it drops, and what is published does not change.
@Suite("trace: none in memory")
struct TraceDetailTests {
    /// The `result` of a raw reply, as the engine wrote it.
    static func resultText(_ reply: String) throws -> Substring {
        let start = try #require(reply.range(of: #""result":"#)).upperBound
        #expect(reply.hasSuffix("}"))
        return reply[start..<reply.index(before: reply.endIndex)]
    }

    static func request(_ method: String, _ params: String, id: Int = 1) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    @Test(
        "H8 a light hit test is the full reply's window, view and localPoint, byte for byte",
        arguments: ["[20,20]", "[50,420]", "[900,900]"])
    func hitTestIsTheFullReplysPrefix(point: String) throws {
        let engine = try EmbeddedEngine()
        let full = try Self.resultText(try #require(engine.send(Self.request("hitTest", #"{"point":\#(point)}"#))))
        let light = try Self.resultText(
            try #require(engine.send(Self.request("hitTest", #"{"point":\#(point),"trace":"none"}"#))))
        let cut = try #require(full.range(of: #","visited":"#)).lowerBound
        #expect(light == full[..<cut] + "}")
        #expect(try JSONCodec.decode(Array(light.utf8)).objectMembers?.map(\.key) == ["window", "view", "localPoint"])
    }

    @Test("a light tap answers the published outcome, seq and seqRange; the event is the one a full tap publishes")
    func tapPublishesTheSameEvent() throws {
        var replies: [JSON] = []
        var events: [JSON] = []
        for detail in ["", #","trace":"none""#] {
            let engine = try EmbeddedEngine()
            let text = try #require(engine.send(Self.request("event.tap", #"{"point":[20,20]\#(detail)}"#)))
            replies.append(try JSONCodec.decode(Array(try Self.resultText(text).utf8)))
            let traces = engine.sink.events.filter { $0.topic == "default/trace" }
            try #require(traces.count == 1)
            events.append(traces[0].body)
        }
        let (full, light) = (replies[0], replies[1])
        #expect(full["trace"] != nil && light["trace"] == nil)
        #expect(events[1]["trace"] == events[0]["trace"] && events[1]["request"] == events[0]["request"])
        #expect(events[1]["request"]?["params"]?["trace"] == nil, "the event's request leaves trace out")
        let outcome = JSON.object((light.objectMembers ?? []).filter { $0.key != "seq" && $0.key != "seqRange" })
        #expect(outcome == events[1]["trace"]?["outcome"])
        #expect(light["seq"] == full["seq"] && light["seqRange"] == full["seqRange"])
    }

    @Test("a bad trace value is INVALID_PARAMS naming trace, and the tap is not carried out")
    func badValueChangesNothing() throws {
        let engine = try EmbeddedEngine()
        let before = engine.sink.events.count
        for bad in [#""nope""#, "true", "1", #"["none"]"#] {
            let reply = try JSONCodec.decode(
                try #require(engine.send(Self.request("event.tap", #"{"point":[20,20],"trace":\#(bad)}"#))))
            #expect(reply["error"]?["data"]?["name"] == "INVALID_PARAMS")
            #expect(reply["error"]?["data"]?["field"] == "trace")
        }
        #expect(engine.sink.events.count == before)
        let snapshot = try engine.send(SessionSnapshotRequest(session: nil)).get()
        #expect(snapshot.seq == 0 && snapshot.liveTouches.isEmpty)
    }

    @Test("the typed request leaves trace out unless it is set, and sends the wire name")
    func clientParams() {
        #expect(ResponderConnection.params(of: HitTestRequest(session: nil, point: Point(1, 2)))["trace"] == nil)
        #expect(
            ResponderConnection.params(of: HitTestRequest(session: nil, point: Point(1, 2), trace: TraceDetail.none))[
                "trace"] == "none")
        #expect(
            ResponderConnection.params(of: TapRequest(session: "s", point: Point(1, 2), trace: .full))["trace"]
                == "full")
        #expect(HitTestRequest(session: nil, point: Point(0, 0)).wantsTrace)
        #expect(!HitTestRequest(session: nil, point: Point(0, 0), trace: TraceDetail.none).wantsTrace)
    }
}
