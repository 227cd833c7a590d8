import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderServer
import Testing

/// The hit test's answer keeps its visits by slot and writes their ids only with the reply: its bytes are the
/// wire encoder's of the `Traced<HitTestOutcome>` made from the same answer, and stay the ids of the views it
/// asked whatever the session does afterwards.
@Suite("The hit test's answer by slot")
struct HitTestAnswerTests {
    func traced(_ s: SessionState, _ p: Point) -> [UInt8] { JSONCodec.encode(WireEncoder.encode(s.hitTest(at: p))) }

    /// The reply written from buffers kept between hit tests (`scratch`), as a hitTest request writes it.
    func kept(_ s: SessionState, _ p: Point, traced: Bool, _ scratch: inout HitTestScratch) -> [UInt8] {
        s.hitTest(at: p, keeping: &scratch)
        var w = JSONWriter(reservingCapacity: 64)
        s.writeHitTest(&scratch, traced: traced, to: &w)
        return w.takeBytes()
    }

    /// `{window, view, localPoint}` of the answer made for the hit test alone.
    func untraced(_ s: SessionState, _ p: Point) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 64)
        s.hitTestAnswer(at: p).writeUntracedReply(to: &w)
        return w.takeBytes()
    }

    /// The request's reply at `p`, traced and not, from kept buffers, against the wire encoder's text.
    func expectWritersAgree(_ s: SessionState, _ p: Point, _ scratch: inout HitTestScratch) {
        let reply = s.hitTestReply(at: p)
        #expect(
            reply == traced(s, p),
            "\(p): \(String(decoding: reply, as: UTF8.self))\n!= \(String(decoding: traced(s, p), as: UTF8.self))")
        #expect(kept(s, p, traced: true, &scratch) == reply, "\(p), kept")
        #expect(kept(s, p, traced: false, &scratch) == untraced(s, p), "\(p), kept, untraced")
    }

    @Test("dimming views (names that are no nodes) are written as the traced value writes them")
    func dimmingVisits() throws {
        let presented =
            #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC", "sheetDetent": "medium", "children": [\#(v("S", 0, 400, 400, 400, children: [v("SW", 0, 0, 60, 40, kind: "control", #""class": "UISwitch""#)]))]}"#
        let tree = fixtureF([v("B", 20, 20, 100, 40, kind: "control")])
            .replacingOccurrences(
                of: #""children": [{"id": "RVC""#, with: #""children": [\#(presented), {"id": "RVC""#)
        let s = try session(tree)
        var dimmed = 0
        var scratch = HitTestScratch()
        for p in [Point(200, 100), Point(20, 420), Point(40, 40), Point(5000, 5000), Point(200, 100)] {
            expectWritersAgree(s, p, &scratch)
            if s.hitTestOutcome(at: p).visited.contains(where: { $0.id == "PVC.dimming" }) { dimmed += 1 }
        }
        #expect(dimmed > 0, "a dimming view was asked")
    }

    @Test("an answer kept across a change writes the ids of the views it asked, not the slots' new nodes")
    func keptAcrossAChange() throws {
        var s = try session(fixtureF(treeT1))
        let p = Point(260, 260)
        let answer = s.hitTestAnswer(at: p)
        let before = answer.tracedReply
        var scratch = HitTestScratch()
        #expect(kept(s, p, traced: true, &scratch) == before)
        #expect(answer.view == "E")
        #expect(String(decoding: before, as: UTF8.self).contains(#""id":"E""#))
        // E's subtree leaves and new views take the freed slots.
        _ = try s.apply(
            [
                try GuardedOp(wire: ["op": "remove", "id": "C"], index: 0),
                try GuardedOp(
                    wire: ["op": "insert", "parent": "A", "node": json(v("X", 100, 100, 200, 200))], index: 1),
                try GuardedOp(wire: ["op": "insert", "parent": "X", "node": json(v("Y", 0, 0, 50, 50))], index: 2),
                try GuardedOp(wire: ["op": "insert", "parent": "X", "node": json(v("Z", 0, 0, 50, 50))], index: 3)
            ], ifRevision: nil, limits: Limits())
        #expect(answer.tracedReply == before)
        #expect(answer.outcome.visited.map(\.id) == ["W", "R", "A", "C", "E"])
        #expect(s.hitTestOutcome(at: p).view == "X")
        // The buffers kept through the change answer for the world as it is now.
        for q in [p, Point(120, 120), Point(5000, 5000)] {
            #expect(kept(s, q, traced: true, &scratch) == s.hitTestReply(at: q), "\(q)")
            #expect(kept(s, q, traced: false, &scratch) == untraced(s, q), "\(q), untraced")
        }
    }

    @Test("ids that need escaping, and ids that do not, are written as the traced value writes them")
    func escapedIDs() throws {
        // Plain views (the fast path): each kind of byte that is escaped, text past eight bytes on either side of
        // one, and non-ASCII text, which is not.
        let ids = [
            #"Q"uote"#, #"back\slash"#, "ctl\u{01}x", "tab\tnew\nline\r", "\u{1f}",
            #"a long id with a " in the middle"#,
            "é ü 漢字 🙂", "plain-id-longer-than-sixteen-bytes", "p"
        ]
        func quoted(_ id: String) -> String { String(decoding: JSONCodec.encode(.string(id)), as: UTF8.self) }
        // Siblings side by side, the front-most last: a point in one misses those after it (H3), then hits it.
        let views = ids.enumerated().map { i, id in
            #"{"id": \#(quoted(id)), "kind": "view", "frame": [\#(10 * i), 0, 10, 10], "children": []}"#
        }
        let s = try session(fixtureF(views))
        var scratch = HitTestScratch()
        var asked = Set<String>()
        for (i, _) in ids.enumerated() {
            let p = Point(Double(10 * i) + 5, 5)
            expectWritersAgree(s, p, &scratch)
            asked.formUnion(s.hitTestOutcome(at: p).visited.map(\.id))
        }
        #expect(asked.isSuperset(of: ids), "\(ids.filter { !asked.contains($0) })")
    }
}
