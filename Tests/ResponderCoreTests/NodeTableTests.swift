import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// The world's node table behaves as a dictionary would, across chunk boundaries, and a copy
/// is untouched by changes to the original.
@Suite struct NodeTableTests {
    @Test func aPresentNodeIsReadWhereItIsStored() {
        // `read` hands out the node inside its `Node?` slot through a pointer: that needs nil kept in the node's
        // spare bits, with no tag byte after it (else it falls back to a copy, which is slower but right).
        #expect(NodeTable.hasNoTag)
    }

    @Test func randomInsertsUpdatesAndRemovalsMatchADictionary() {
        var rng = SeededRandom(state: 0x5EED)
        var table = NodeTable()
        var model: [String: Node] = [:]
        var snapshots: [(NodeTable, [String: Node])] = []
        for step in 0..<20_000 {
            let id = "n\(rng.next() % 3000)"
            switch rng.next() % 4 {
            case 0, 1:
                var node = Node(id: id, kind: .view)
                node.revision = step
                if model[id] == nil {
                    #expect(table.insertNew(node) != nil)
                    model[id] = node
                } else {
                    #expect(table.insertNew(node) == nil, "a duplicate id is refused")
                }
            case 2:
                if model[id] != nil {
                    table[id]!.children.append("c\(step)")
                    model[id]!.children.append("c\(step)")
                }
            default:
                table[id] = nil
                model[id] = nil
            }
            if step % 2500 == 0 { snapshots.append((table, model)) }
        }
        #expect(table.count == model.count)
        for (id, node) in model { #expect(table[id] == node) }
        #expect(Set(table.keys) == Set(model.keys))
        for (copy, expected) in snapshots {
            #expect(copy.count == expected.count)
            for (id, node) in expected { #expect(copy[id] == node) }
        }
    }

    /// A load gives the world and every node it makes the load's revision as the node is made — the
    /// application, the tree's nodes and the detached subtrees' — on a session's first load, on a load over a later
    /// revision, and for a world prepared apart and taken at a revision other than the one it was made at.
    @Test func aLoadGivesEveryNodeTheLoadsRevision() throws {
        let tree = try NodeTree(
            wire: [
                "id": "app", "kind": "application",
                "children": [
                    [
                        "id": "w", "kind": "window",
                        "children": [view("a", [view("a1"), view("a2", [view("a21")])]), view("b")]
                    ]
                ]
            ], path: "tree")
        let detached = [try NodeTree(wire: view("d", [view("d1")]), path: "detached[0]")]
        func revisions(_ state: SessionState) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: state.world.nodes.keys.map { ($0, state.world[$0]!.revision) })
        }
        let ids = ["app", "w", "a", "a1", "a2", "a21", "b", "d", "d1"]
        func all(_ revision: Int) -> [String: Int] { Dictionary(uniqueKeysWithValues: ids.map { ($0, revision) }) }
        var state = SessionState()
        let r = state.world.revision
        _ = try state.load(tree: tree, detached: detached, limits: .default)
        #expect(state.world.revision == r + 1)
        #expect(revisions(state) == all(r + 1))

        _ = try state.apply(
            [try GuardedOp(wire: ["op": "update", "id": "a1", "set": ["alpha": 0.5]], index: 0)], ifRevision: nil,
            limits: .default)
        #expect(state.world.revision == r + 2)
        #expect(state.world["a1"]!.revision == r + 2 && state.world["b"]!.revision == r + 1)
        _ = try state.load(tree: tree, detached: detached, limits: .default)
        #expect(state.world.revision == r + 3)
        #expect(revisions(state) == all(r + 3))

        // Prepared for a first load, taken by a session three revisions on.
        let prepared = try World.prepared(tree: tree, detached: detached, limits: .default)
        #expect(prepared.revision == r + 1)
        _ = state.load(prepared: prepared)
        #expect(state.world.revision == r + 4)
        #expect(revisions(state) == all(r + 4))
    }

    /// A restored world gives each node the revision it was saved with as the node is made: a tree entry its
    /// own (`treeRevisions`), else its id's (`nodeRevisions`, as a detached node's is), else the world's.
    @Test func aRestoredWorldGivesEachNodeItsSavedRevision() throws {
        let tree = try NodeTree(
            wire: [
                "id": "app", "kind": "application",
                "children": [["id": "w", "kind": "window", "children": [view("a", [view("a1")]), view("b")]]]
            ], path: "tree")
        let detached = [try NodeTree(wire: view("d", [view("d1")]), path: "detached[0]")]
        // Entries in the tree's order: app, w, a, b, a1 (breadth first) — read back rather than assumed.
        let order = tree.entries.map(\.spec.id)
        let own: [String: Int] = ["app": 3, "a": 7, "a1": 9]
        let world = try World.restored(
            tree: tree, treeRevisions: order.map { own[$0] }, detached: detached,
            nodeRevisions: ["a": 100, "b": 5, "d1": 8], revision: 12, limits: .default)
        #expect(world.revision == 12)
        let expected = ["app": 3, "w": 12, "a": 7, "a1": 9, "b": 5, "d": 12, "d1": 8]
        #expect(Dictionary(uniqueKeysWithValues: world.nodes.keys.map { ($0, world[$0]!.revision) }) == expected)
    }

    @Test func equalityIgnoresSlots() {
        var a = NodeTable(), b = NodeTable()
        for i in 0..<2100 { _ = a.insertNew(Node(id: "v\(i)", kind: .view)) }
        for i in (0..<2100).reversed() { _ = b.insertNew(Node(id: "v\(i)", kind: .view)) }
        #expect(a == b)
        b["v7"]!.children.append("x")
        #expect(a != b)
    }
}

/// A view node's JSON with `children`, for the trees these tests load.
private func view(_ id: String, _ children: [JSON] = []) -> JSON {
    ["id": .string(id), "kind": "view", "children": .array(children)]
}
