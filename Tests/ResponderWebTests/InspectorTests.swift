import FlyingFox
import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import ResponderTestSupport
import Testing

@testable import ResponderWeb

/// The web inspector without the `responder` executable or a browser: the feed on its EngineThread follows a
/// real engine into the Inspector, whose page messages are read as a page's WebSocket would get them.
@Suite struct InspectorTests {
    @Test func anotherClientsTapReachesThePageAsAnEventWithItsOverlay() async throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let inspector = Inspector(session: "default", capacity: 10)
        let feed = try EngineFeed.start(
            connector: t.connector(clientName: "responder web", kind: "cli-web"), inspector: inspector)
        defer { feed.stopAndWait() }
        let (messages, page) = AsyncStream<WSMessage>.makeStream()
        let id = inspector.attach(page)
        defer { inspector.detach(id) }
        let other = try t.connect()
        _ = try other.call("client.hello", ["name": "other-tool"])

        // Whatever the page is shown first, the tap's event and overlay come once the feed follows the session.
        // A tap made before the feed's subscription is live arrives with the next one, recovered from the replay ring.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(patienceSeconds))
            page.finish()
        }
        defer { watchdog.cancel() }
        var following = false
        var event: JSON?
        var overlay: JSON?
        for await message in messages {
            guard case .text(let text) = message, let m = try? JSONCodec.decode(Array(text.utf8)) else { continue }
            switch m["type"]?.stringValue {
            case "status" where !following && (m["text"]?.stringValue ?? "").hasPrefix("following default"):
                following = true
                _ = try other.call("event.tap", ["point": [50, 420]])
            case "event" where m["client"] == "other-tool":
                event = m
                _ = try other.call("event.tap", ["point": [50, 420]])  // reveals a gap, if the first was missed
            case "overlay" where event != nil && m["source"] == "event":
                overlay = m
            default:
                break
            }
            if overlay != nil { break }
        }
        #expect(event?["stream"] == "trace", "\(String(describing: event))")
        #expect(overlay?["view"] == "B", "\(String(describing: overlay))")
        #expect(overlay?["svg"]?.stringValue?.hasPrefix("<g class=\"overlay\">") == true, "the overlay is drawn")

        // The page's node panel reads the world the feed mirrored.
        let fields = try #require(inspector.node("B"))
        #expect(fields["kind"] == "control")
    }

    @Test func theMirrorReplaysTheEnginesTreeEventsToTheEnginesTree() throws {
        let t = try LiveEngine()
        defer { t.stop() }
        let connection = try t.connect()
        let follower = try SessionFollower(connection: try t.connect(), session: "default", streams: [.tree])
        var mirror = WorldMirror()
        guard case .snapshot(let snapshot)? = try follower.next(timeoutMs: 1000) else {
            Issue.record("the follower begins with a snapshot")
            return
        }
        try mirror.load(tree: snapshot.tree, detached: snapshot.detached)
        try follower.untilLive()

        _ = try connection.call(
            "tree.apply",
            [
                "ops": [
                    ["op": "update", "id": "B", "set": ["hidden": true]],
                    ["op": "insert", "parent": "R", "node": ["id": "C", "kind": "view", "frame": [0, 0, 10, 10]]],
                    ["op": "remove", "id": "A"]
                ]
            ])
        let deadline = Date().addingTimeInterval(patienceSeconds)
        var applied = false
        while !applied, Date() < deadline {
            guard case .event(let e)? = try follower.next(timeoutMs: 1000), e.topic == "default/tree" else { continue }
            try mirror.apply(event: e.body)
            applied = true
        }
        #expect(applied)
        let engines = try connection.call("tree.get")["tree"]
        #expect(mirror.tree == engines, "mirror \(mirror.tree)\nengine \(String(describing: engines))")
    }
}
