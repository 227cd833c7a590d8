import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// The hit tester reads each view's point-free questions from its `HitRecord`, kept by the node table beside the
/// slot. Here, over random worlds changed by random batches (fields the record answers set and cleared, views
/// added, moved and removed, batches refused and rolled back, the world read back from its own text), its
/// answers — the view, the window, the points, every visit with its reason, rule and redirect — are those of
/// an independent hit test written straight from the rules over the nodes' own fields.
@Suite struct HitRecordTests {
    private struct Builder {
        var rng: SeededRandom
        var next = 0

        mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        mutating func chance(_ n: Int) -> Bool { int(n) == 0 }

        /// Some of the fields a hit test reads, each set now and then, with `ids` as redirect targets.
        mutating func fields(_ ids: [String], kind: String) -> [String: JSON] {
            var out: [String: JSON] = [:]
            if chance(8) { out["hidden"] = .bool(chance(3)) }
            if chance(8) { out["alpha"] = .number([0, 0.005, 0.01, 0.011, 0.5, 1, 1][int(7)]) }
            if chance(8) { out["userInteractionEnabled"] = chance(3) ? .null : .bool(chance(2)) }
            if kind == "view" && chance(10) { out["class"] = .string(["UIImageView", "UILabel", "UIView"][int(3)]) }
            if chance(6) { out["animating"] = chance(2) ? .null : ["allowUserInteraction": .bool(!chance(3))] }
            if kind == "control" && chance(3) { out["enabled"] = .bool(chance(2)) }
            if chance(8) { out["boundsOrigin"] = [.number(Double(int(40)) - 20), .number(Double(int(40)) - 20)] }
            if chance(6) {
                let transforms: [JSON] = [
                    [1, 0, 0, 1, 0, 0], [0.5, 0, 0, 0.5, 10, 5], [0, 1, -1, 0, 0, 0], [0, 0, 0, 0, 0, 0],
                    [2, 0, 0, 1.5, -30, 20], .null
                ]
                out["transform"] = transforms[int(transforms.count)]
            }
            if chance(3) {
                var hit: [String: JSON] = [:]
                if chance(2) { hit["mode"] = .string(["default", "default", "passThroughSelf", "never"][int(4)]) }
                if chance(2) {
                    hit["insets"] = [
                        .number(Double(int(30)) - 15), .number(Double(int(30)) - 15), .number(Double(int(30)) - 15),
                        .number(Double(int(2)))
                    ]
                }
                if !chance(3), !ids.isEmpty {
                    hit["redirect"] = ["to": .string(ids[int(ids.count)]), "when": .string(chance(2) ? "self" : "nil")]
                }
                out["hitTest"] = .object(hit.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            }
            return out
        }

        /// A view, control or child controller with up to `depth` levels below it, fresh ids.
        mutating func node(depth: Int, ids: [String]) -> JSON {
            next += 1
            if depth > 0 && chance(7) {
                // A child controller: its root view is asked in its place.
                return [
                    "id": .string("vc\(next)"), "kind": "viewController",
                    "children": [node(depth: depth - 1, ids: ids)]
                ]
            }
            let kind = chance(4) ? "control" : "view"
            let id = "\(kind == "control" ? "c" : "v")\(next)"
            var members: [String: JSON] = [
                "id": .string(id), "kind": .string(kind),
                "frame": [
                    .number(Double(int(150))), .number(Double(int(300))), .number(Double(60 + int(240))),
                    .number(Double(100 + int(500)))
                ]
            ]
            for (k, v) in fields(ids, kind: kind) { members[k] = v }
            var children: [JSON] = []
            if depth > 0 { for _ in 0..<int(4) { children.append(node(depth: depth - 1, ids: ids)) } }
            members["children"] = .array(children)
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }

        mutating func op(_ world: World) -> JSON {
            let ids = world.nodes.keys.sorted()
            let views = ids.filter { world[$0]!.kind == .view || world[$0]!.kind == .control }
            let holders = views + ids.filter { world[$0]!.kind == .window }
            func pick(_ list: [String]) -> JSON { list.isEmpty ? "nope" : .string(list[int(list.count)]) }
            switch int(10) {
            case 0..<2:
                return ["op": "insert", "parent": pick(holders), "node": node(depth: int(3), ids: views)]
            case 2..<3:
                return ["op": "move", "id": pick(views), "parent": pick(holders)]
            case 3..<4:
                return ["op": "remove", "id": pick(views)]
            case 4..<9:
                guard !views.isEmpty else { return ["op": "remove", "id": "nope"] }
                let id = views[int(views.count)]
                var set = fields(views, kind: world[id]!.kind == .control ? "control" : "view")
                if set.isEmpty { set["hidden"] = .bool(chance(3)) }
                return [
                    "op": "update", "id": .string(id),
                    "set": .object(set.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
                ]
            default:
                return ["op": "remove", "id": "nope"]
            }
        }
    }

    // MARK: - The oracle: the rules read straight from each node's fields, recursively

    private struct Oracle {
        let world: World
        var visits: [HitVisit] = []
        var window = ""

        init(world: World) { self.world = world }

        private func convert(_ p: Point, into spec: NodeSpec) -> Point? {
            let f = spec.frame, o = spec.boundsOrigin
            guard let t = spec.transform, t != .identity else { return Point(p.x - f.x + o.x, p.y - f.y + o.y) }
            guard let inv = t.inverted else { return nil }
            let hw = f.width / 2, hh = f.height / 2
            let c = inv.apply(Point(p.x - (f.x + hw), p.y - (f.y + hh)))
            return Point(c.x + hw + o.x, c.y + hh + o.y)
        }

        private func validRedirect(_ id: String) -> String? {
            guard let node = world[id], node.kind.isView, world.window(of: id) == window else { return nil }
            return id
        }

        private mutating func redirect(_ i: Int, to target: String) {
            visits[i].result = .hit
            visits[i].reason = .redirect
            visits[i].rule = .h6
            visits[i].to = target
        }

        /// A view asked with `point` in its own bounds: its answer and the point it answered about.
        mutating func ask(_ id: String, _ point: Point?) -> (String, Point?)? {
            let spec = world[id]!.spec
            let i = visits.count
            visits.append(HitVisit(id: id, point: point, result: .miss, reason: nil, rule: .h2, to: nil))
            let o = spec.hitTest
            var excluded: (HitReason, Rule)?
            if o.mode == .never {
                visits[i].result = .skipped
                visits[i].reason = .never
                visits[i].rule = .h6
                return nil
            } else if spec.hidden {
                excluded = (.hidden, .h2)
            } else if spec.alpha < 0.01 {
                excluded = (.alpha, .h2)
            } else if !(spec.interactionSetting ?? spec.uikitClass?.defaultUserInteractionEnabled ?? true) {
                excluded = (.interactionDisabled, spec.interactionSetting == nil ? .k1 : .h2)
            } else if spec.uikit.animatingAllowsInteraction == false {
                excluded = (.animating, .k10)
            } else if spec.kind.isControl && !spec.enabled {
                excluded = (.disabledControl, .h7)
            } else if let p = point {
                let b = Rect(spec.boundsOrigin.x, spec.boundsOrigin.y, spec.frame.width, spec.frame.height)
                if !b.inset(by: o.insets).contains(p) { excluded = (.outsideBounds, o.insets == .zero ? .h3 : .h6) }
            } else {
                excluded = (.singularTransform, .h4)
            }
            if let (reason, rule) = excluded {
                visits[i].reason = reason
                visits[i].rule = rule
                if let r = o.redirect, r.when == .nil, let target = validRedirect(r.to) {
                    redirect(i, to: target)
                    return (target, nil)
                }
                return nil
            }
            for child in world[id]!.children.reversed() {
                guard let c = world[child] else { continue }
                var asked = child
                if c.kind == .viewController {
                    guard let root = c.children.first, let r = world[root], r.kind.isSubviewKind else { continue }
                    asked = root
                } else if !c.kind.isSubviewKind {
                    continue
                }
                if let answer = ask(asked, convert(point!, into: world[asked]!.spec)) {
                    visits[i].result = .hit
                    visits[i].rule = .h2
                    return answer
                }
            }
            if let r = o.redirect, r.when == .self, let target = validRedirect(r.to) {
                redirect(i, to: target)
                return (target, nil)
            }
            if o.mode == .passThroughSelf {
                visits[i].result = .skipped
                visits[i].reason = .passThrough
                visits[i].rule = .h6
                return nil
            }
            visits[i].result = .hit
            visits[i].rule = .h2
            return (id, point)
        }

        mutating func run(_ screen: Point) -> HitTestOutcome {
            let windows = world[World.rootID]!.children.enumerated().filter { world[$0.element]?.kind == .window }
            let ordered = windows.sorted {
                let a = world[$0.element]!.windowLevel, b = world[$1.element]!.windowLevel
                return a != b ? a > b : $0.offset > $1.offset
            }
            for (_, w) in ordered {
                window = w
                let q = convert(screen, into: world[w]!.spec)
                if let (view, point) = ask(w, q) {
                    let local = point ?? q.flatMap { world.convert($0, fromWindow: w, to: view) }
                    return HitTestOutcome(window: w, view: view, localPoint: local, visited: visits)
                }
            }
            return HitTestOutcome(window: nil, view: nil, localPoint: nil, visited: visits)
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

    /// Each point asked of the tester and of the oracle: the same outcome. What the visits said is tallied in
    /// `seen` (result, reason, rule, redirected), so the test can tell it reached every rule the record answers.
    ///
    /// The same hit test into buffers kept between hit tests (`scratch`, one for the whole walk, as a session's
    /// host keeps one through every change) writes the bytes of the answer made for it alone.
    private func check(
        _ world: World, _ points: [Point], _ label: String, _ seen: inout Set<String>,
        _ scratch: inout HitTestScratch
    ) {
        for p in points {
            let answer = HitTester.answer(world: world, profile: .uikit, screen: p)
            let got = answer.outcome
            var oracle = Oracle(world: world)
            let want = oracle.run(p)
            #expect(got == want, "\(label) at \(p)")
            HitTester.run(world: world, profile: .uikit, screen: p, keeping: &scratch)
            for traced in [true, false] {
                var kept = JSONWriter(reservingCapacity: 64)
                HitAnswerText.write(scratch, nodes: world.nodes, traced: traced, to: &kept)
                var alone = JSONWriter(reservingCapacity: 64)
                if traced { answer.writeTracedReply(to: &alone) } else { answer.writeUntracedReply(to: &alone) }
                #expect(kept.takeBytes() == alone.takeBytes(), "\(label) at \(p), kept, traced \(traced)")
            }
            for v in got.visited {
                seen.insert("\(v.result) \(v.reason.map { "\($0)" } ?? "-") \(v.rule)\(v.to == nil ? "" : " to")")
            }
        }
    }

    @Test func recordAnswersAsTheFieldsDoThroughRandomBatches() throws {
        var seen: Set<String> = []
        for seed: UInt64 in [0x5eed_3636, 0x7e57_0001, 0xbeef_0042, 0x0dd_ba11] {
            try walk(seed: seed, &seen)
        }
        // The walks reached views excluded, redirected and answering for every reason the record decides.
        let wanted = [
            "hit - h2", "miss hidden h2", "miss alpha h2", "miss animating k10", "miss disabledControl h7",
            "miss outsideBounds h3", "miss outsideBounds h6", "miss singularTransform h4", "hit redirect h6 to",
            "skipped never h6", "skipped passThrough h6"
        ]
        #expect(Set(wanted).subtracting(seen).isEmpty, "not reached: \(Set(wanted).subtracting(seen).sorted())")
    }

    /// Views nested deeper, asked more often and under more windows than the room a hit test's lists start with
    /// (on its own stack for an answer made for itself, kept by a session between hit tests): the lists grow,
    /// and the answers are still the oracle's.
    @Test("H2, H3, H8: lists that outgrow their first room still record every view asked, as the oracle does")
    func listsGrowPastTheirFirstRoom() throws {
        // 20 levels of views, each in front of the next level two siblings that miss the point.
        var node: JSON = ["id": "v20", "kind": "view", "frame": [0, 0, 40, 40]]
        for depth in stride(from: 19, through: 0, by: -1) {
            node = [
                "id": .string("v\(depth)"), "kind": "view", "frame": [0, 0, 400, 800],
                "children": [
                    node, ["id": .string("a\(depth)"), "kind": "view", "frame": [300, 700, 10, 10]],
                    ["id": .string("b\(depth)"), "kind": "view", "frame": [300, 700, 10, 10]]
                ]
            ]
        }
        // Five windows above it that miss the point.
        let above: [JSON] = (1...5).map { i in
            ["id": .string("X\(i)"), "kind": "window", "windowLevel": .number(Double(i)), "frame": [500, 500, 10, 10]]
        }
        var world = World()
        try world.load(
            tree: [
                "id": "app", "kind": "application",
                "children": .array(
                    [["id": "W", "kind": "window", "frame": [0, 0, 400, 800], "children": [node]]] + above)
            ])
        var seen: Set<String> = []
        var scratch = HitTestScratch()
        check(world, [Point(5, 5), Point(600, 5), Point(5, 5)], "deep", &seen, &scratch)
        // The windows above, W, v0, and each level's two siblings and the next level.
        let answer = HitTester.answer(world: world, profile: .uikit, screen: Point(5, 5))
        #expect(answer.visitCount == 5 + 2 + 20 * 3)
        #expect(answer.view == "v20")
    }

    /// One random world changed over 250 rounds, each asked at 16 random points.
    private func walk(seed: UInt64, _ seen: inout Set<String>) throws {
        var b = Builder(rng: SeededRandom(state: seed))
        var world = World()
        try world.load(tree: [
            "id": "app", "kind": "application",
            "children": [
                ["id": "W", "kind": "window", "frame": [0, 0, 400, 800], "children": [b.node(depth: 3, ids: [])]],
                [
                    "id": "W2", "kind": "window", "windowLevel": 1, "frame": [50, 50, 200, 200],
                    "children": [b.node(depth: 2, ids: [])]
                ]
            ]
        ])
        var applied = 0, refused = 0
        var scratch = HitTestScratch()
        for round in 0..<250 {
            let points = (0..<16).map { _ in Point(Double(b.int(420)), Double(b.int(820))) }
            let ops = (0..<(1 + b.int(5))).map { _ in b.op(world) }
            if apply(&world, ops) { applied += 1 } else { refused += 1 }
            #expect(world.nodes.slotsMatchIDs(), "round \(round)")
            check(world, points, "round \(round)", &seen, &scratch)
            if round % 50 == 49 {
                // Read back from its own text: every record made again at load, in other slots.
                let tree = try NodeTree(wire: JSONCodec.decode(world.encoded()), path: "tree")
                let detached = try JSONCodec.decode(world.encodedDetached()).arrayValue!.enumerated().map {
                    try NodeTree(wire: $0.element, path: "detached[\($0.offset)]")
                }
                world = try World.restored(
                    tree: tree, detached: detached, nodeRevisions: [:], revision: world.revision, limits: .default)
                #expect(world.nodes.slotsMatchIDs())
                check(world, points, "round \(round), read back", &seen, &scratch)
            }
        }
        #expect(applied > 60 && refused > 20, "seed \(seed): applied \(applied), refused \(refused)")
    }
}
