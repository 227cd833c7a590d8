import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// The node table's structure by slot (each node's parent slot and children's slots) says what the nodes'
/// `parent` and `children` ids say, after every kind of change: batches of inserts, moves, removals and
/// updates, batches that fail and roll back, loads and restores. And the hit test, which walks the slots,
/// answers the same in a world whose slots lie in another order. A removal frees slots and moves no node; an
/// insert takes freed slots before making new ones.
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
            HitTester.answer(world: world, profile: .uikit, screen: p).outcome
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
            let slotsBefore = slots(world)
            let ops = (0..<(1 + b.int(6))).map { _ in b.op(world) }
            if apply(&world, ops) {
                applied += 1
                // Ids are never used twice here, so a node in the world before and after was never removed.
                #expect(slots(world).allSatisfy { slotsBefore[$0.key] ?? $0.value == $0.value }, "round \(round)")
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
        let slotOfB = table.slot(of: "b")!
        let others = ["a", "c", "d"].map { table.slot(of: $0)! }
        table["b"] = nil  // its child now names a parent that is gone; its slot is freed and no node moves
        #expect(table.slotsMatchIDs())
        #expect(["a", "c", "d"].map { table.slot(of: $0)! } == others)
        table["b"] = b
        table.relink(around: ["b"])
        #expect(table.slotsMatchIDs())
        #expect(table.slot(of: "b") == slotOfB, "the freed slot is taken again")
        #expect(
            table.childSlots(ofSlot: table.slot(of: "a")!) == [
                Int32(table.slot(of: "b")!), -1, Int32(table.slot(of: "d")!)
            ])
        #expect(table.parentSlot(ofSlot: table.slot(of: "c")!) == Int32(table.slot(of: "b")!))
    }

    private func view(_ id: String, _ children: [JSON] = []) -> JSON {
        ["id": .string(id), "kind": "view", "frame": [0, 0, 10, 10], "children": .array(children)]
    }

    private func slots(_ world: World) -> [String: Int] {
        var out: [String: Int] = [:]
        for id in world.nodes.keys { out[id] = world.nodes.slot(of: id)! }
        return out
    }

    /// The world read back from its own text: slots made afresh, in document order.
    private func reread(_ world: World) throws -> World {
        let tree = try NodeTree(wire: JSONCodec.decode(world.encoded()), path: "tree")
        let detached = try JSONCodec.decode(world.encodedDetached()).arrayValue!.enumerated().map {
            try NodeTree(wire: $0.element, path: "detached[\($0.offset)]")
        }
        return try World.restored(
            tree: tree, detached: detached, nodeRevisions: [:], revision: world.revision, limits: .default)
    }

    @Test func freedSlotsAreTakenAgainByLaterInserts() throws {
        var world = World()
        try world.load(tree: [
            "id": "app", "kind": "application",
            "children": [
                [
                    "id": "W", "kind": "window", "frame": [0, 0, 400, 800],
                    "children": [
                        view("a", [view("a1", [view("a11"), view("a12")]), view("a2")]),
                        view("b", [view("b1")]), view("c")
                    ]
                ]
            ]
        ])
        let made = world.nodes.slotCount
        let before = slots(world)
        #expect(apply(&world, [["op": "remove", "id": "a"]]))
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made, "a removal makes no slot and drops none")
        #expect(slots(world).allSatisfy { before[$0.key] == $0.value }, "every node left stays in its slot")

        // A batch that fails after its removal and insert puts everything back as it was, in slots it had freed
        // (not necessarily each node's own).
        let kept = world
        #expect(
            !apply(
                &world,
                [
                    ["op": "remove", "id": "b"], ["op": "insert", "parent": "W", "node": view("x")],
                    ["op": "remove", "id": "nope"]
                ]))
        #expect(world == kept)
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made)

        // Fewer nodes than are free: all go into free slots, beside and below nodes that stay where they are.
        let stayed = slots(world)
        let free = Set(0..<made).subtracting(stayed.values)
        #expect(free.count == 5)
        #expect(
            apply(
                &world,
                [
                    ["op": "insert", "parent": "b", "index": 0, "node": view("n", [view("n1"), view("n2")])],
                    ["op": "insert", "parent": "W", "node": view("m")], ["op": "move", "id": "c", "parent": "n1"]
                ]))
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made)
        let now = slots(world)
        for id in ["n", "n1", "n2", "m"] { #expect(free.contains(now[id]!), "\(id) took a free slot") }
        #expect(stayed.allSatisfy { now[$0.key] == $0.value }, "every node there stays in its slot")
        // The same structure and hit-test answers as the world made afresh from its text.
        let fresh = try reread(world)
        #expect(fresh.nodes.slotsMatchIDs())
        #expect(structure(fresh) == structure(world))
        let points = [Point(5, 5), Point(1, 1), Point(300, 300)]
        #expect(hits(fresh, points) == hits(world, points))
        // More nodes than are free: the rest get new slots.
        #expect(apply(&world, [["op": "insert", "parent": "m", "node": view("p", [view("p1"), view("p2")])]]))
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made + 2)
    }

    /// A view with thousands of children removed in one op, after half of them were removed one op each: every
    /// slot of theirs is freed, in the order the subtree lists them, no other node moves, and the freed slots
    /// hold the next nodes inserted.
    @Test func aWideRemovalFreesItsSlotsAndMovesNoOtherNode() throws {
        let n = 6000
        var world = World()
        try world.load(tree: [
            "id": "app", "kind": "application",
            "children": [
                [
                    "id": "W", "kind": "window", "frame": [0, 0, 400, 800],
                    "children": [
                        view("wide", (0..<n).map { view("c\($0)", $0 % 100 == 0 ? [view("g\($0)")] : []) }),
                        view("other", (0..<n).map { view("d\($0)") })
                    ]
                ]
            ]
        ])
        let made = world.nodes.slotCount
        let before = slots(world)
        let everyOther: [JSON] = stride(from: 0, to: n, by: 2).map { ["op": "remove", "id": .string("c\($0)")] }
        let expected = stride(from: 0, to: n, by: 2).flatMap { world.subtree("c\($0)") }
        let first = try world.apply(everyOther.enumerated().map { try GuardedOp(wire: $0.element, index: $0.offset) })
        #expect(first.removed == expected)
        #expect(world.nodes.slotsMatchIDs())
        let listed = world.subtree("wide")
        let second = try world.apply([GuardedOp(wire: ["op": "remove", "id": "wide"], index: 0)])
        #expect(second.removed == listed)
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made)
        #expect(world.count == n + 3)
        #expect(slots(world).allSatisfy { before[$0.key] == $0.value }, "every node left stays in its slot")
        #expect(world["W"]!.children == ["other"])

        // As many nodes again: every one takes a freed slot.
        let freed = made - world.count
        #expect(
            apply(
                &world,
                [
                    [
                        "op": "insert", "parent": "W", "index": 0,
                        "node": view("again", (0..<(freed - 1)).map { view("e\($0)") })
                    ]
                ]))
        #expect(world.nodes.slotsMatchIDs())
        #expect(world.nodes.slotCount == made)
        let fresh = try reread(world)
        #expect(structure(fresh) == structure(world))
        let points = [Point(5, 5), Point(200, 400)]
        #expect(hits(fresh, points) == hits(world, points))
    }
}
