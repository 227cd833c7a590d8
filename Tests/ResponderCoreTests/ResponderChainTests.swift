import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@Suite("nextResponder (N1–N4)")
struct ResponderChainTests {
    @Test("N1 a view's next responder is its superview, a root view's is its controller; detached has none")
    func n1Views() throws {
        let s = try session(fixtureF(treeT1), detached: [v("Loose", 0, 0, 10, 10, children: [v("Inner", 0, 0, 5, 5)])])
        #expect(try s.chain("E") == ["E", "C", "A", "R", "RVC", "W", "app", "AD"])
        #expect(try s.chain("Inner") == ["Inner", "Loose"])
    }

    @Test("N2 / P19 a child controller hands on to the view holding its root view; presented → presenter")
    func n2Controllers() throws {
        let childVC =
            #"{"id": "ChildVC", "kind": "viewController", "children": [\#(v("CV", 0, 0, 100, 100, children: [v("Btn", 0, 0, 50, 50, kind: "control")]))]}"#
        let presented =
            #"{"id": "Modal", "kind": "viewController", "presentedBy": "RVC", "children": [\#(v("MV", 0, 0, 400, 800, children: [v("MB", 0, 0, 10, 10)]))]}"#
        let s = try session(fixtureF([v("Container", 0, 0, 200, 200, children: [childVC])]))
        #expect(try s.chain("Btn") == ["Btn", "CV", "ChildVC", "Container", "R", "RVC", "W", "app", "AD"])
        var s2 = s
        _ = try s2.ops(#"{"op": "insert", "parent": "W", "node": \#(presented)}"#)
        #expect(try s2.chain("MB") == ["MB", "MV", "Modal", "RVC", "W", "app", "AD"])
        // A root controller's next is its window.
        #expect(try s2.chain("RVC") == ["RVC", "W", "app", "AD"])
    }

    @Test("N3 window → application → app delegate → none; an event falling off the end is discarded")
    func n3EndOfChain() throws {
        var s = try session(fixtureF([v("V", 0, 0, 100, 100)]))
        #expect(try s.chain("W") == ["W", "app", "AD"])
        #expect(try s.chain("AD") == ["AD"])
        let d = try s.tap(10, 10)
        let discards = steps(d, "discard")
        #expect(discards.count == 2)
        #expect(discards.first?["reason"] == "end-of-chain")
        #expect(discards.first?["rule"] == "N3")
        // Without an app delegate the chain ends at the application.
        let bare = try session(
            #"{"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window", "frame": [0, 0, 10, 10]}]}"#
        )
        #expect(try bare.chain("W") == ["W", "app"])
    }

    @Test("N4 nextResponder is computed at each hop from the current tree")
    func n4ComputedEachHop() throws {
        var s = try session(
            fixtureF([
                v("P", 0, 0, 200, 200, children: [v("V", 0, 0, 100, 100)]),
                v("Q", 200, 0, 200, 200, #""handles": {"touchesMoved": "handle"}"#)
            ]))
        #expect(try s.chain("V") == ["V", "P", "R", "RVC", "W", "app", "AD"])
        let began = try s.phase("t", "began", 10, 10)
        #expect(strings(began["visited"]) == ["V", "P", "R", "RVC", "W", "app", "AD"])
        // V moves under Q (still in the window): the touch stays bound to V, but its next hop is now Q.
        let change = try s.ops(#"{"op": "move", "id": "V", "parent": "Q"}"#)
        #expect(change.consequences == nil)
        #expect(try s.chain("V") == ["V", "Q", "R", "RVC", "W", "app", "AD"])
        let moved = try s.phase("t", "moved", 10, 10)
        #expect(strings(moved["visited"]) == ["V", "Q"])
        #expect(strings(moved["handledBy"]) == ["Q"])
    }

    @Test("N2 a presentedBy cycle cannot make a walk loop forever")
    func n2PresentedCycle() throws {
        let a = #"{"id": "VA", "kind": "viewController", "presentedBy": "VB", "children": [\#(v("MA", 0, 0, 10, 10))]}"#
        let b = #"{"id": "VB", "kind": "viewController", "presentedBy": "VA", "children": [\#(v("MB", 0, 0, 10, 10))]}"#
        var s = try session(fixtureF(windows: []))
        _ = try s.ops(
            #"{"op": "insert", "parent": "W", "node": \#(a)}"#, #"{"op": "insert", "parent": "W", "node": \#(b)}"#)
        #expect(try s.chain("MA") == ["MA", "VA", "VB"])
        let d = try s.tap(5, 5)
        #expect(steps(d, "discard").first?["reason"] == "cycle")
    }

    @Test("responderChain: unknown id is NODE_NOT_FOUND; unknown params are rejected")
    func chainErrors() throws {
        let s = try session(fixtureF())
        expectError(.nodeNotFound) { _ = try s.responderChain(["id": "nope"]) }
        expectError(.invalidParams) { _ = try s.responderChain(["id": "R", "extra": true]) }
        #expect(try s.responderChain(["id": "R", "session": "s"])["chain"] == JSON(["R", "RVC", "W", "app", "AD"]))
    }

    @Test("responderChain answers with a trace: one next step per hop with its rule, ending at none (N3)")
    func chainTrace() throws {
        let s = try session(fixtureF())
        let reply = try s.responderChain(["id": "R"])
        let trace = try #require(reply["trace"])
        #expect(trace["kind"] == "responderChain")
        #expect(trace["outcome"] == ["chain": ["R", "RVC", "W", "app", "AD"]])
        let hops = (trace["steps"]?.arrayValue ?? []).map { [$0["from"]!, $0["to"]!, $0["rule"]!] }
        #expect(
            hops == [["R", "RVC", "N1"], ["RVC", "W", "N2"], ["W", "app", "N3"], ["app", "AD", "N3"], ["AD", nil, "N3"]]
        )
    }
}
