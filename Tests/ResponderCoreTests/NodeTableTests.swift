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

    /// A load's change lists every node of the new world, each after its parent (read from the table's slots).
    @Test func aLoadListsEveryNodeParentsFirst() throws {
        func view(_ id: String, _ children: [JSON] = []) -> JSON {
            ["id": .string(id), "kind": "view", "children": .array(children)]
        }
        let tree: JSON = [
            "id": "app", "kind": "application",
            "children": [
                [
                    "id": "w", "kind": "window",
                    "children": [view("a", [view("a1"), view("a2", [view("a21")])]), view("b")]
                ]
            ]
        ]
        var state = SessionState()
        let change = try state.load(
            tree: NodeTree(wire: tree, path: "tree"),
            detached: [NodeTree(wire: view("d", [view("d1")]), path: "detached[0]")], limits: .default)
        let changed = change.batch.changed
        #expect(Set(changed) == Set(state.world.nodes.keys))
        #expect(changed.count == state.world.count)
        for (i, id) in changed.enumerated() {
            if let parent = state.world[id]?.parent {
                #expect(changed.firstIndex(of: parent)! < i, "\(id) after \(parent)")
            }
        }
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
