import ResponderCore
import ResponderProtocol
import Testing

@Suite("Deep trees: no recursion proportional to depth")
struct DeepTreeTests {
    @Test("a 100,000-deep chain of views is hit-tested, walked, dispatched to, serialized and removed")
    func hundredThousandDeep() throws {
        let depth = 100_000
        var s = try session(fixtureF())
        var ops: [GuardedOp] = []
        ops.reserveCapacity(depth)
        for i in 0..<depth {
            let parent = i == 0 ? "R" : "v\(i - 1)"
            let extra: JSON = i == depth - 1 ? ["canBecomeFirstResponder": true] : [:]
            var node: JSON = ["id": .string("v\(i)"), "kind": "view", "frame": [0, 0, 10, 10]]
            for (k, value) in extra.objectMembers! { node = node.setting(k, value) }
            ops.append(try GuardedOp.parse(["op": "insert", "parent": .string(parent), "node": node], index: i))
        }
        _ = try s.apply(ops, ifRevision: nil, limits: .default)
        let deepest = "v\(depth - 1)"

        let hit = try s.hit(5, 5)
        #expect(hit["view"] == .string(deepest))
        #expect(hit["visited"]?.arrayValue?.count == depth + 2)

        let chain = try s.chain(deepest)
        #expect(chain.count == depth + 5)
        #expect(chain.suffix(5) == ["R", "RVC", "W", "app", "AD"])

        let began = try s.phase("t", "began", 5, 5)
        #expect(began["view"] == .string(deepest))
        #expect(strings(began["visited"]).count == depth + 5)
        #expect(try s.become(deepest).result["result"] == true)

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
        #expect(strings(c.result["touches"]?[0]?["visited"]).count == depth)
        #expect(c.focus.count == 1)
        #expect(s.world.count == 5)
    }
}
