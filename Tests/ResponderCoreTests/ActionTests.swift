import ResponderCore
import ResponderProtocol
import Testing

/// A button whose touchUpInside sends `action` with a nil target (seed 004 §2).
func button(_ id: String = "Btn", action: String = "tap:", _ extra: String = "") -> String {
    let more = extra.isEmpty ? "" : ", \(extra)"
    return v(
        id, 0, 0, 50, 50, kind: "control",
        #""targets": [{"event": "touchUpInside", "action": "\#(action)", "target": null}]\#(more)"#)
}

@Suite("Target-action (A1–A5, P14–P19)")
struct ActionTests {
    @Test("A1 a control sends every action registered for an event, in registration order")
    func a1RegistrationOrder() throws {
        let targets =
            #""targets": [{"event": "touchUpInside", "action": "second:", "target": "RVC"}, {"event": "touchDown", "action": "down:", "target": "RVC"}, {"event": "touchUpInside", "action": "first:", "target": null}, {"event": "touchUpOutside", "action": "never:", "target": "RVC"}]"#
        var s = try session(
            fixtureF(
                [v("Btn", 0, 0, 50, 50, kind: "control", targets)],
                rvc: #""handles": {"second:": "handle", "down:": "handle", "first:": "handle", "never:": "handle"}"#))
        let d = try s.tap(10, 10)
        #expect(steps(d, "action").map { $0["action"]! } == ["down:", "second:", "first:"])
        let up = d.result["deliveries"]![1]!["actions"]!
        #expect(up[0]?["action"] == "second:")
        #expect(up[1]?["action"] == "first:")
        #expect(up[1]?["by"] == "RVC")
    }

    @Test("A2 an explicit target gets the action directly; a target that does not implement it crashes the app")
    func a2ExplicitTarget() throws {
        var s = try session(
            fixtureF(
                [v("TF", 0, 0, 100, 40, kind: "textField", #""handles": {"save:": "handle"}"#), v("V", 0, 100, 10, 10)],
                rvc: #""handles": {"save:": "handle"}"#))
        _ = try s.become("TF")
        let d = try s.sendAction(["action": "save:", "target": "RVC", "sender": nil])
        #expect(d.result == ["performed": true, "by": "RVC", "visited": ["RVC"]])
        let e = try s.sendAction(["action": "save:", "target": "V", "sender": nil])
        #expect(e.result["performed"] == false)
        #expect(e.result["by"] == .null)
        #expect(e.result["reason"] == "unrecognized-selector")
        #expect(
            e.result["crashed"] == ["reason": "unrecognized-selector", "target": "V", "action": "save:", "rule": "A2"])
        #expect(steps(e, "action").first?["rule"] == "A2")
        // Profile `ignore`: the quiet failure, and no crash.
        var ignore = Profile.uikit
        ignore.unrecognizedSelector = .ignore
        var q = try session(fixtureF([v("V", 0, 100, 10, 10)]), profile: ignore)
        let f = try q.sendAction(["action": "save:", "target": "V", "sender": nil])
        #expect(f.result["reason"] == "not-implemented" && f.result["crashed"] == nil)
        expectError(.nodeNotFound) { _ = try s.sendAction(["action": "save:", "target": "nope", "sender": nil]) }
    }

    @Test("A3 / P14 no first responder: the search starts at the sender, which performs it")
    func a3SenderP14() throws {
        var s = try session(fixtureF([button(#"Btn"#, action: "tap:", #""handles": {"tap:": "handle"}"#)]))
        let d = try s.tap(10, 10)
        let action = d.result["deliveries"]![1]!["actions"]![0]!
        #expect(action["performed"] == true)
        #expect(action["by"] == "Btn")
        let direct = try s.sendAction(["action": "tap:", "target": nil, "sender": "Btn"])
        #expect(direct.result["visited"] == ["Btn"])
    }

    @Test("A3 with neither first responder nor sender the search starts at the application")
    func a3Application() throws {
        var s = try session(fixtureF(ad: #""handles": {"tap:": "handle"}"#))
        let d = try s.sendAction(["action": "tap:", "target": nil, "sender": nil])
        #expect(d.result == ["performed": true, "by": "AD", "visited": ["app", "AD"]])
    }

    @Test("A4 / P15 the walk goes Btn → P, and P performs it")
    func a4WalkP15() throws {
        var s = try session(fixtureF([v("P", 0, 0, 100, 100, #""handles": {"tap:": "handle"}"#, children: [button()])]))
        let d = try s.tap(10, 10)
        #expect(steps(d, "action").first?["by"] == "P")
        let walk = steps(d, "deliver").filter { $0["message"] == "tap:" }
        #expect(walk.map { $0["to"]! } == ["Btn", "P"])
        #expect(walk.allSatisfy { $0["rule"] == "A4" })
    }

    @Test("P16 only RVC implements it: Btn → P → R → RVC")
    func p16WalkToController() throws {
        var s = try session(
            fixtureF([v("P", 0, 0, 100, 100, children: [button()])], rvc: #""handles": {"tap:": "handle"}"#))
        _ = try s.tap(10, 10)
        let d = try s.sendAction(["action": "tap:", "target": nil, "sender": "Btn"])
        #expect(d.result == ["performed": true, "by": "RVC", "visited": ["Btn", "P", "R", "RVC"]])
    }

    @Test("A4 / P17 nobody implements it: the walk ends after AD, returns false and says so")
    func a4UnhandledP17() throws {
        var s = try session(fixtureF([v("P", 0, 0, 100, 100, children: [button()])]))
        let d = try s.sendAction(["action": "tap:", "target": nil, "sender": "Btn"])
        #expect(d.result["performed"] == false)
        #expect(d.result["visited"] == ["Btn", "P", "R", "RVC", "W", "app", "AD"])
        #expect(steps(d, "discard").first?["reason"] == "end-of-chain")
        #expect(steps(d, "discard").first?["rule"] == "A4")
        let t = try s.tap(10, 10)
        #expect(t.result["deliveries"]![1]!["actions"]![0]!["performed"] == false)
    }

    @Test("A4 canPerformAction vetoes skip a responder that implements the action")
    func a4Veto() throws {
        var s = try session(
            fixtureF(
                [v("P", 0, 0, 100, 100, #""handles": {"tap:": "handle"}, "vetoes": ["tap:"]"#, children: [button()])],
                rvc: #""handles": {"tap:": "handle"}"#))
        let d = try s.sendAction(["action": "tap:", "target": nil, "sender": "Btn"])
        #expect(d.result["by"] == "RVC")
        #expect(steps(d, "deliver").first { $0["to"] == "P" }?["reason"] == "vetoed")
    }

    @Test("A3 / P18 the first responder wins: the walk starts at TF; with no first responder P performs it")
    func a3FirstResponderP18() throws {
        let tree = fixtureF(
            [
                v("P", 0, 0, 100, 100, #""handles": {"tap:": "handle"}"#, children: [button()]),
                v("Q", 0, 200, 100, 100, children: [v("TF", 0, 0, 100, 40, kind: "textField")])
            ], rvc: #""handles": {"tap:": "handle"}"#)
        var s = try session(tree)
        _ = try s.become("TF")
        let d = try s.tap(10, 10)
        #expect(steps(d, "action").first?["by"] == "RVC")
        #expect(!steps(d, "deliver").contains { $0["to"] == "P" && $0["message"] == "tap:" })
        #expect(
            try s.sendAction(["action": "tap:", "target": nil, "sender": "Btn"]).result["visited"] == [
                "TF", "Q", "R", "RVC"
            ])
        var none = try session(tree)
        #expect(steps(try none.tap(10, 10), "action").first?["by"] == "P")
    }

    @Test("P19 a child controller sits in the walk: Btn → CV → childVC → Container → R → RVC")
    func p19ChildController() throws {
        let child =
            #"{"id": "ChildVC", "kind": "viewController", "children": [\#(v("CV", 0, 0, 100, 100, children: [button(action: "save:")]))]}"#
        var s = try session(
            fixtureF([v("Container", 0, 0, 200, 200, children: [child])], rvc: #""handles": {"save:": "handle"}"#))
        let d = try s.tap(10, 10)
        #expect(steps(d, "action").first?["by"] == "RVC")
        let walk = steps(d, "deliver").filter { $0["message"] == "save:" }.map { $0["to"]! }
        #expect(walk == ["Btn", "CV", "ChildVC", "Container", "R", "RVC"])
    }

    @Test("A5 editing commands walk from the first responder with the application as sender; no side effects")
    func a5EditingMenu() throws {
        var s = try session(
            fixtureF(
                [
                    v(
                        "TF", 0, 0, 100, 40, kind: "textField",
                        #""handles": {"copy:": "handle", "paste:": "handle"}, "vetoes": ["paste:"]"#)
                ], rvc: #""handles": {"paste:": "handle"}"#))
        // No first responder: the walk starts at the sender, the application.
        let none = try s.canPerformAction(["action": "copy:"])
        #expect(withoutTrace(none) == ["available": false, "by": nil, "visited": ["app", "AD"], "editingCommand": true])
        #expect(none["trace"]?["kind"] == "canPerform")
        #expect(none["trace"]?["outcome"] == withoutTrace(none))
        #expect(
            (none["trace"]?["steps"]?.arrayValue ?? []).filter { $0["step"] == "deliver" }.map { $0["to"]! } == [
                "app", "AD"
            ])
        _ = try s.become("TF")
        #expect(
            try withoutTrace(s.canPerformAction(["action": "copy:"])) == [
                "available": true, "by": "TF", "visited": ["TF"], "editingCommand": true
            ])
        let paste = try s.canPerformAction(["action": "paste:", "session": "x"])
        #expect(paste["by"] == "RVC")
        #expect(paste["visited"] == ["TF", "R", "RVC"])
        #expect(try s.canPerformAction(["action": "cut:"])["available"] == false)
        #expect(s.keyFR == "TF")
        expectError(.invalidParams) { _ = try s.canPerformAction(["action": "copy:", "target": nil]) }
    }
}
