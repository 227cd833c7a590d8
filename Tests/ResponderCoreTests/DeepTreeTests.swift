import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@Suite("Deep trees: no recursion proportional to depth")
struct DeepTreeTests {
    @Test("a 100,000-deep chain of views is hit-tested, walked, dispatched to, serialized and removed", .tags(.slow))
    func slowHundredThousandDeep() throws {
        let depth = 100_000
        var s = try session(fixtureF())
        var ops: [GuardedOp] = []
        ops.reserveCapacity(depth)
        for i in 0..<depth {
            let parent = i == 0 ? "R" : "v\(i - 1)"
            let extra: JSON = i == depth - 1 ? ["canBecomeFirstResponder": true] : [:]
            var node: JSON = ["id": .string("v\(i)"), "kind": "view", "frame": [0, 0, 10, 10]]
            for (k, value) in extra.objectMembers! { node = node.setting(k, value) }
            ops.append(try GuardedOp(wire: ["op": "insert", "parent": .string(parent), "node": node], index: i))
        }
        _ = try s.apply(ops, ifRevision: nil, limits: .default)
        let deepest = "v\(depth - 1)"

        // Typed outcomes: at this size the test is about the core, not the wire encoding.
        let hit = s.hitTest(at: Point(5, 5)).outcome
        #expect(hit.view == deepest)
        #expect(hit.visited.count == depth + 2)

        let chain = try s.responderChain(from: deepest).outcome.chain
        #expect(chain.count == depth + 5)
        #expect(chain.suffix(5) == ["R", "RVC", "W", "app", "AD"])

        let began = try #require(
            try s.touch([TouchInput(touch: "t", phase: .began, point: Point(5, 5))], client: "c").outcome.deliveries
                .first)
        #expect(began.view == deepest)
        #expect(began.visited.count == depth + 5)
        #expect(try s.become(deepest).outcome.result)

        // Serialization streams the nesting; the text is checked as bytes (a decoded 100,000-deep JSON
        // value would recurse when freed, which is the codec's business, not this test's).
        let text = String(decoding: s.world.encoded(), as: UTF8.self)
        let complete = text.hasPrefix(#"{"id":"app""#) && text.hasSuffix(String(repeating: "]}", count: 50))
        let holdsDeepest = text.contains(#""id":"\#(deepest)""#)
        #expect(complete)
        #expect(holdsDeepest)

        // Removing the top of the chain cancels the touch and resigns the first responder.
        let change = try s.ops(#"{"op": "remove", "id": "v0"}"#)
        let c = try #require(change.consequences)
        #expect(c.outcome.touches.first?.visited.count == depth)
        #expect(c.trace.focusChanges.count == 1)
        #expect(s.world.count == 5)
    }
}
