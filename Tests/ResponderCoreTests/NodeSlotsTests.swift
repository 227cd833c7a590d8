import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// The node table's structure by slot (each node's parent slot and children's slots) says what the nodes'
/// `parent` and `children` ids say, after every kind of change: batches of inserts, moves, removals and
/// updates, batches that fail and roll back, loads and restores. And the hit test, which walks the slots,
/// answers the same in a world whose slots lie in another order.
@Suite struct NodeSlotsTests {
    private struct Builder {
        var rng: SeededRandom
        var next = 0

        mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

        /// A view with up to `depth` levels of random subviews, fresh ids.
        mutating func view(depth: Int) -> JSON {
            next += 1
            let id = "v\(next)"
            var children: [JSON] = []
            if depth > 0 {
                for _ in 0..<int(3) { children.append(view(depth: depth - 1)) }
            }
            let x = Double(int(200)), y = Double(int(400))
            let w = Double(20 + int(300)), h = Double(20 + int(400))
            return [
                "id": .string(id), "kind": "view", "frame": [.number(x), .number(y), .number(w), .number(h)],
                "children": .array(children)
            ]
        }

        /// A random op on `world`; some fail (a cycle, a missing id), which rolls the whole batch back.
        mutating func op(_ world: World) -> JSON {
            let ids = world.nodes.keys.sorted()
            let views = ids.filter { world[$0]!.kind == .view }
            let holders = ids.filter { world[$0]!.kind == .view || world[$0]!.kind == .window }
            func pick(_ list: [String]) -> JSON { list.isEmpty ? "nope" : .string(list[int(list.count)]) }
            func parent() -> JSON { int(5) == 0 ? .null : pick(holders) }
            switch int(12) {
            case 0..<4:
                return ["op": "insert", "parent": parent(), "node": view(depth: int(3))]
            case 4..<7:
                var op: JSON = ["op": "move", "id": pick(views), "parent": parent()]
                if int(2) == 0 { op = op.setting("index", 0) }
                return op
            case 7..<9:
                return ["op": "remove", "id": pick(views)]
            case 9..<11:
                return ["op": "update", "id": pick(views), "set": ["hidden": .bool(int(4) == 0)]]
            default:
                return ["op": "remove", "id": "nope"]
            }
        }
    }

    private func apply(_ world: inout World, _ ops: [JSON]) -> Bool {
        guard let parsed = try? ops.enumerated().map({ try GuardedOp(wire: $0.element, index: $0.offset) }) else {
            return false
        }
        do {
            _ = try world.apply(parsed)
            return true
        } catch {
            return false
        }
    }

    /// Every node's id, parent and children, and the detached roots: what the slots must agree with.
    private func structure(_ world: World) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for id in world.nodes.keys { out[id] = [world[id]!.parent ?? "-"] + world[id]!.children }
        out["-detached"] = world.detachedRoots
        return out
    }

    private func hits(_ world: World, _ points: [Point]) -> [HitTestOutcome] {
        points.map { p in
            var tester = HitTester(world: world, profile: .uikit)
            return tester.run(screen: p).outcome
        }
    }

    @Test func slotsFollowRandomBatchesRollbacksLoadsAndRestores() throws {
        var b = Builder(rng: SeededRandom(state: 0x51075))
        var world = World()
        try world.load(tree: [
            "id": "app", "kind": "application",
            "children": [
                ["id": "W", "kind": "window", "frame": [0, 0, 400, 800], "children": [b.view(depth: 3)]],
                ["id": "W2", "kind": "window", "windowLevel": 1, "frame": [50, 50, 200, 200]]
            ]
        ])
        #expect(world.nodes.slotsMatchIDs())
        let points = (0..<12).map { _ in Point(Double(b.int(420)), Double(b.int(820))) }
        var applied = 0, refused = 0
        var kept: [(World, [String: [String]])] = []
        for round in 0..<400 {
            let before = world
            let ops = (0..<(1 + b.int(6))).map { _ in b.op(world) }
            if apply(&world, ops) {
                applied += 1
            } else {
                refused += 1
                #expect(world == before, "a refused batch left the world as it was")
            }
            #expect(world.nodes.slotsMatchIDs(), "round \(round): \(ops)")
            if round % 40 == 0 { kept.append((world, structure(world))) }
            if round % 25 == 24 {
                // Read back from its own text: other slots, the same world and the same answers.
                let tree = try NodeTree(wire: JSONCodec.decode(world.encoded()), path: "tree")
                let detached = try JSONCodec.decode(world.encodedDetached()).arrayValue!.enumerated().map {
                    try NodeTree(wire: $0.element, path: "detached[\($0.offset)]")
                }
                let restored = try World.restored(
                    tree: tree, detached: detached, nodeRevisions: [:], revision: world.revision, limits: .default)
                #expect(restored.nodes.slotsMatchIDs())
                #expect(structure(restored) == structure(world))
                #expect(hits(restored, points) == hits(world, points))
                world = restored
            }
        }
        #expect(applied > 100 && refused > 50, "applied \(applied), refused \(refused)")
        // Copies taken along the way share chunks with the world that went on changing, and are as they were.
        for (copy, shape) in kept {
            #expect(copy.nodes.slotsMatchIDs())
            #expect(structure(copy) == shape)
        }
    }

    @Test func slotsFollowChangesMadeThroughTheSubscript() {
        var table = NodeTable()
        var app = Node(id: "a", kind: .view)
        app.children = ["b", "missing"]
        _ = table.insertNew(app)
        var b = Node(id: "b", kind: .view)
        b.parent = "a"
        b.children = ["c"]
        // Each node arrives after the parent that lists it, as only a put-back batch does: the parent learns
        // its slot when the slots are derived again around it.
        _ = table.insertNew(b)
        table.relink(around: ["b"])
        var c = Node(id: "c", kind: .view)
        c.parent = "b"
        table["c"] = c
        table.relink(around: ["c"])
        #expect(table.slotsMatchIDs())
        table["a"]!.children.append("d")
        var d = Node(id: "d", kind: .view)
        d.parent = "a"
        table["d"] = d
        table.relink(around: ["d"])
        #expect(table.slotsMatchIDs())
        table["b"] = nil  // its child now names a parent that is gone; the last node moves into its slot
        #expect(table.slotsMatchIDs())
        table["b"] = b
        table.relink(around: ["b"])
        #expect(table.slotsMatchIDs())
        #expect(
            table.childSlots(ofSlot: table.slot(of: "a")!) == [
                Int32(table.slot(of: "b")!), -1, Int32(table.slot(of: "d")!)
            ])
        #expect(table.parentSlot(ofSlot: table.slot(of: "c")!) == Int32(table.slot(of: "b")!))
    }
}
