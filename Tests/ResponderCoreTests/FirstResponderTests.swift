import ResponderCore
import ResponderProtocol
import Testing

@Suite("First responder (F1–F7, P20–P22)")
struct FirstResponderTests {
    let fields = [
        v("TF1", 0, 0, 100, 40, kind: "textField"), v("TF2", 0, 100, 100, 40, kind: "textField"),
        v("V", 0, 200, 100, 100), v("TV", 0, 400, 100, 100, kind: "textView")
    ]

    @Test("F1 text fields and text views can become first responder by default; plain views cannot")
    func f1Defaults() throws {
        var s = try session(fixtureF(fields))
        let plain = try s.become("V")
        #expect(plain.result["result"] == false)
        #expect(plain.result["reason"] == "cannot-become")
        #expect(try s.become("TV").result["result"] == true)
        #expect(try s.become("TF1").result["result"] == true)
        var s2 = try session(fixtureF([v("V", 0, 0, 10, 10, #""canBecomeFirstResponder": true"#)]))
        #expect(try s2.become("V").result["result"] == true)
        #expect(s2.keyFR == "V")
    }

    @Test("F2 become: already first responder → true and nothing else; success reports the resigned one")
    func f2Become() throws {
        var s = try session(fixtureF(fields))
        let first = try s.become("TF1")
        #expect(first.result == ["result": true, "reason": "became", "resigned": nil])
        #expect(first.focus == [["window": "W", "from": nil, "to": "TF1", "reason": "become"]])
        let again = try s.become("TF1")
        #expect(again.result["reason"] == "already-first-responder")
        #expect(again.focus.isEmpty)
        let second = try s.become("TF2")
        #expect(second.result == ["result": true, "reason": "became", "resigned": "TF1"])
        #expect(steps(second, "firstResponder").first?["from"] == "TF1")
        #expect(s.keyFR == "TF2")
        // F2.3: canBecome false leaves the current one untouched.
        let refused = try s.become("V")
        #expect(refused.result["result"] == false)
        #expect(refused.focus.isEmpty)
        #expect(s.keyFR == "TF2")
    }

    @Test("F2 / P20 not in a window → false, the current one is unchanged; once inserted → true")
    func f2NotInWindowP20() throws {
        var s = try session(
            fixtureF([v("TF0", 0, 0, 100, 40, kind: "textField")]),
            detached: [v("TF", 0, 0, 100, 40, kind: "textField")])
        _ = try s.become("TF0")
        let d = try s.become("TF")
        #expect(d.result == ["result": false, "reason": "not-in-window", "resigned": nil])
        #expect(s.keyFR == "TF0")
        _ = try s.ops(#"{"op": "move", "id": "TF", "parent": "R"}"#)
        let e = try s.become("TF")
        #expect(e.result == ["result": true, "reason": "became", "resigned": "TF0"])
        #expect(s.keyFR == "TF")
    }

    @Test("F2 / P21 the current first responder that cannot resign keeps its place")
    func f2CannotResignP21() throws {
        var s = try session(
            fixtureF([
                v("TF1", 0, 0, 100, 40, kind: "textField", #""canResignFirstResponder": false"#),
                v("TF2", 0, 100, 100, 40, kind: "textField")
            ]))
        _ = try s.become("TF1")
        let d = try s.become("TF2")
        #expect(d.result == ["result": false, "reason": "current-cannot-resign", "resigned": nil])
        #expect(s.keyFR == "TF1")
        #expect(d.focus.isEmpty)
    }

    @Test("F3 resign: the first responder that agrees resigns; any other responder answers true, as UIKit's default")
    func f3Resign() throws {
        var s = try session(
            fixtureF(fields + [v("Stuck", 0, 600, 10, 10, kind: "textField", #""canResignFirstResponder": false"#)]))
        #expect(try s.resign("TF1").result == ["result": true, "reason": "not-first-responder", "resigned": nil])
        _ = try s.become("TF1")
        let d = try s.resign("TF1")
        #expect(d.result == ["result": true, "reason": "resigned", "resigned": "TF1"])
        #expect(d.focus == [["window": "W", "from": "TF1", "to": nil, "reason": "resign"]])
        #expect(s.keyFR == .null)
        _ = try s.become("Stuck")
        #expect(try s.resign("Stuck").result["reason"] == "cannot-resign")
        #expect(s.keyFR == "Stuck")
        expectError(.nodeNotFound) { _ = try s.resign("nope") }
    }

    @Test("F4 each window has its own first responder; 'the first responder' is the key window's")
    func f4PerWindow() throws {
        let w2 =
            #"{"id": "W2", "kind": "window", "frame": [0, 0, 400, 800], "children": [\#(v("TF9", 0, 0, 100, 40, kind: "textField", #""handles": {"motionEnded": "handle"}"#))]}"#
        var s = try session(
            fixtureF(
                [v("TF1", 0, 0, 100, 40, kind: "textField", #""handles": {"motionEnded": "handle"}"#)], windows: [w2]))
        _ = try s.become("TF1")
        _ = try s.become("TF9")
        #expect(wire(s.firstResponders) == ["W": "TF1", "W2": "TF9"])
        #expect(try s.firstResponder(["window": "W2"]) == "TF9")
        #expect(s.keyFR == "TF1")
        #expect(try s.motion(["subtype": "shake", "phase": "ended"]).result["start"] == "TF1")
        let change = try s.makeKey(["id": "W2"])
        #expect(change.ops.count == 2)
        var off = NodeUpdate()
        off.set("key", \.key, false)
        #expect(change.ops.first == GuardedOp(.update(id: "W", set: off)))
        #expect(s.world["W"]?.key == false)
        #expect(s.keyFR == "TF9")
        #expect(try s.motion(["subtype": "shake", "phase": "ended"]).result["handledBy"] == ["TF9"])
        expectError(.wrongKind) { _ = try s.makeKey(["id": "TF1"]) }
        expectError(.wrongKind) { _ = try s.firstResponder(["window": "TF1"]) }
        expectError(.nodeNotFound) { _ = try s.makeKey(["id": "nope"]) }
    }

    @Test("F5 tapping a text field makes it first responder at touch-up inside; a button does not")
    func f5TapTextField() throws {
        var s = try session(
            fixtureF([v("TF", 0, 0, 100, 40, kind: "textField"), v("Btn", 0, 100, 100, 40, kind: "control")]))
        let d = try s.tap(10, 10)
        #expect(d.focus == [["window": "W", "from": nil, "to": "TF", "reason": "tap"]])
        #expect(steps(d, "firstResponder").first?["rule"] == "F5")
        #expect(s.keyFR == "TF")
        let b = try s.tap(10, 110)
        #expect(b.focus.isEmpty)
        #expect(s.keyFR == "TF")
        // Touch-up outside (beyond the slop) does not.
        _ = try s.resign("TF")
        _ = try s.phase("t", "began", 10, 10)
        let ended = try s.touch(["touches": [["touch": "t", "phase": "ended", "point": point(300, 300)]]], client: "c")
        #expect(ended.focus.isEmpty)
        #expect(s.keyFR == .null)
    }

    @Test("F6 / P22 a first responder whose ancestor leaves the window is resigned by force; none is promoted")
    func f6ForcedResignP22() throws {
        var s = try session(
            fixtureF([
                v(
                    "P", 0, 0, 200, 200,
                    children: [v("TF", 0, 0, 100, 40, kind: "textField", #""canResignFirstResponder": false"#)]),
                v("Other", 0, 300, 100, 40, kind: "textField")
            ]))
        _ = try s.become("TF")
        let change = try s.ops(#"{"op": "remove", "id": "P"}"#)
        let c = try #require(change.consequences)
        #expect(c.focus == [["window": "W", "from": "TF", "to": nil, "reason": "left-window"]])
        #expect(c.result["resigned"] == [["window": "W", "from": "TF"]])
        #expect(steps(c, "firstResponder").first?["rule"] == "F6")
        #expect(wire(s.firstResponders) == ["W": nil])
        // Detaching (move to null) counts as leaving too.
        _ = try s.become("Other")
        let d = try #require(try s.ops(#"{"op": "move", "id": "Other", "parent": null}"#).consequences)
        #expect(d.focus.count == 1)
        #expect(s.keyFR == .null)
    }

    @Test("F7 a view controller can be first responder when it can become one and its chain reaches a window")
    func f7ControllerFirstResponder() throws {
        let child =
            #"{"id": "ChildVC", "kind": "viewController", "canBecomeFirstResponder": true, "children": [\#(v("CV", 0, 0, 10, 10))]}"#
        let loose =
            #"{"id": "LooseVC", "kind": "viewController", "canBecomeFirstResponder": true, "children": [\#(v("LV", 0, 0, 10, 10))]}"#
        var s = try session(fixtureF([child], rvc: #""handles": {"motionBegan": "handle"}"#), detached: [loose])
        #expect(try s.become("ChildVC").result["result"] == true)
        #expect(try s.motion(["subtype": "shake", "phase": "began"]).result["visited"] == ["ChildVC", "R", "RVC"])
        #expect(try s.become("LooseVC").result["reason"] == "not-in-window")
        #expect(try s.become("RVC").result["reason"] == "cannot-become")
    }

    @Test("become / resign reject unknown params")
    func focusParams() throws {
        var s = try session(fixtureF(fields))
        expectError(.invalidParams) { _ = try s.become(["id": "TF1", "force": true]) }
        expectError(.invalidParams) { _ = try s.become(["session": "x"]) }
        #expect(try s.become(["id": "TF1", "session": "x"]).trace.kind == .become)
    }
}
