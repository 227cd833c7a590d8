import Foundation
import ResponderJSON
import Testing

@testable import ResponderCore
@testable import ResponderProtocol

/// Whether a load's event may be kept unwritten rests on `World.minimumEncodedSize` never exceeding
/// what the world writes. Every field set to its shortest value, on every kind of node, must still be at least it.
@Suite struct MinimumSizeTests {
    @Test func isAtMostWhatTheWorldWritesEvenWithEveryFieldAtItsShortest() throws {
        func node(_ id: String, _ kind: NodeKind, _ children: [JSON] = [], _ extra: [(key: String, value: JSON)] = [])
            -> JSON
        {
            var members: [(key: String, value: JSON)] = [
                ("id", .string(id)), ("kind", .string(kind.rawValue)), ("class", "X")
            ]
            members += extra
            if !children.isEmpty { members.append(("children", .array(children))) }
            return .object(members)
        }
        let shortView: [(key: String, value: JSON)] = [
            ("hidden", true), ("clipsToBounds", true), ("multipleTouchEnabled", true),
            ("exclusiveTouch", true), ("canBecomeFirstResponder", true),
            ("hitTest", ["mode": "never"]), ("frame", [0, 0, 0, 0])
        ]
        let vc = node("c", .viewController, [node("r", .view, [], shortView)])
        let presented = node("p", .viewController, [node("q", .view, [], shortView)], [("presentedBy", "c")])
        let window = node(
            "w", .window,
            [
                vc, presented, node("t", .textField, [], shortView), node("k", .control, [], shortView),
                node("x", .textView, [], shortView)
            ], shortView + [("key", true)])
        let app = node(
            "app", .application, [window, node("d", .appDelegate, [], [("canBecomeFirstResponder", true)])],
            [("receivesRemoteControlEvents", true)])
        var world = World()
        try world.load(tree: NodeTree(wire: app, path: "tree"))
        let written = world.encoded().count + world.encodedDetached().count
        #expect(world.minimumEncodedSize() <= written)
        #expect(world.minimumEncodedSize() > 0)
        // Each leaf's own text against its own bound (the closest test: a leaf is written alone).
        for id in ["r", "q", "t", "k", "x", "d"] {
            let kind = world[id]!.kind
            #expect(
                NodeTreeText.minimumWrittenSize(kind) + id.utf8.count <= world.encoded(id).count,
                "\(id), a \(kind.rawValue)")
        }
    }

    @Test(arguments: NodeKind.allCases)
    func kindIndexIsThePositionInAllCases(_ kind: NodeKind) {
        #expect(NodeKind.allCases[kind.index] == kind)
    }

    /// And close enough to be useful: a plain view's bound is most of what it writes.
    @Test func isCloseForPlainViews() throws {
        let views: [JSON] = (0..<500).map { ["id": .string("v\($0)"), "kind": "view", "frame": [1, 2, 3, 4]] }
        var world = World()
        try world.load(
            tree: NodeTree(
                wire: [
                    "id": "app", "kind": "application",
                    "children": [["id": "w", "kind": "window", "frame": [0, 0, 9, 9], "children": .array(views)]]
                ], path: "tree"))
        let written = world.encoded().count
        #expect(world.minimumEncodedSize() <= written)
        #expect(Double(world.minimumEncodedSize()) > 0.8 * Double(written))
    }
}
