import FlyingFox
import Foundation
import ResponderJSON
import ResponderTestSupport
import Testing

@testable import ResponderWeb

/// The inspector's outline names an imported node by its display name, and a node without one by its class.
@Suite struct OutlineNameTests {
    @Test func theOutlineShowsDisplayNames() async throws {
        var world = LiveEngine.world
        var tree = world["tree"] ?? .null
        var children = tree["children"]?.arrayValue ?? []
        children.append(
            [
                "id": "named", "kind": "window", "frame": [0, 0, 100, 100], "class": "UIWindow",
                "annotations": ["displayName": "UIWindow \"Sheet\""]
            ])
        tree = tree.setting("children", .array(children))
        world = world.setting("tree", tree)
        let t = try LiveEngine(world: world)
        defer { t.stop() }
        let inspector = Inspector(session: "default", capacity: 10)
        let feed = try EngineFeed.start(connector: t.connector(), inspector: inspector)
        defer { feed.stopAndWait() }
        let (messages, page) = AsyncStream<WSMessage>.makeStream()
        let id = inspector.attach(page)
        defer { inspector.detach(id) }
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(patienceSeconds))
            page.finish()
        }
        defer { watchdog.cancel() }
        // The world message that carries the engine's tree (the first may come before the feed's snapshot).
        var rows: [String: JSON] = [:]
        for await message in messages {
            guard case .text(let text) = message, let m = try? JSONCodec.decode(Array(text.utf8)),
                m["type"] == "world"
            else { continue }
            for row in m["outline"]?.arrayValue ?? [] {
                if let id = row.arrayValue?.first?.stringValue { rows[id] = row }
            }
            if rows["named"] != nil { break }
        }
        // A row is [id, kind, name, depth, flags, first responder].
        #expect(rows["named"]?.arrayValue?[2] == "UIWindow \"Sheet\"", "\(rows)")
        #expect(rows["B"]?.arrayValue?[2] == "UIButton", "\(rows)")
    }
}
