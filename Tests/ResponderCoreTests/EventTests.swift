import ResponderCore
import ResponderProtocol
import Testing

@Suite("First-responder events (E1–E3, P23)")
struct EventTests {
    @Test("E1 / P23 a shake starts at the first responder and travels up the chain like touches")
    func e1MotionP23() throws {
        var s = try session(
            fixtureF(
                [v("CV", 0, 0, 100, 100, #""canBecomeFirstResponder": true"#)],
                rvc: #""handles": {"motionEnded": "handle"}"#))
        _ = try s.become("CV")
        let d = try s.motion(["subtype": "shake", "phase": "ended"])
        #expect(d.result["start"] == "CV")
        #expect(d.result["visited"] == ["CV", "R", "RVC"])
        #expect(d.result["handledBy"] == ["RVC"])
        #expect(d.trace.kind == .motion)
        #expect(steps(d, "deliver").map { $0["message"]! } == ["motionEnded", "motionEnded", "motionEnded"])
        let b = try s.motion(["subtype": "shake", "phase": "began"])
        #expect(b.result["visited"] == ["CV", "R", "RVC", "W", "app", "AD"])
        expectError(.invalidParams) { _ = try s.motion(["subtype": "tilt", "phase": "began"]) }
        expectError(.invalidParams) { _ = try s.motion(["subtype": "shake", "phase": "moved"]) }
    }

    @Test("E1 remote-control events are delivered only while the application receives them")
    func e1RemoteControl() throws {
        var off = try session(fixtureF(ad: #""handles": {"remoteControlReceived": "handle"}"#))
        let d = try off.remoteControl(["subtype": "play"])
        #expect(d.result["visited"] == [])
        #expect(steps(d, "discard").first?["reason"] == "not-receiving-remote-control-events")
        var on = try session(
            fixtureF(
                ad: #""handles": {"remoteControlReceived": "handle"}"#, app: #""receivesRemoteControlEvents": true"#))
        let e = try on.remoteControl(["subtype": "togglePlayPause"])
        #expect(e.result["handledBy"] == ["AD"])
        #expect(e.result["visited"] == ["W", "app", "AD"])
        expectError(.invalidParams) { _ = try on.remoteControl(["subtype": "rewind"]) }
    }

    @Test("E2 a press stays bound to the responder that got its began")
    func e2PressBinding() throws {
        var s = try session(
            fixtureF([
                v(
                    "TF1", 0, 0, 100, 40, kind: "textField",
                    #""handles": {"pressesBegan": "handle", "pressesEnded": "handle"}"#),
                v("TF2", 0, 100, 100, 40, kind: "textField", #""handles": {"pressesEnded": "handle"}"#)
            ]))
        _ = try s.become("TF1")
        let b = try s.press(["press": "p", "key": "a", "phase": "began"], client: "c")
        #expect(b.result["handledBy"] == ["TF1"])
        #expect(wire(s.livePresses)[0]?["responder"] == "TF1")
        _ = try s.become("TF2")
        let changed = try s.press(["press": "p", "phase": "changed"], client: "c")
        #expect(changed.result["visited"] == ["TF1", "R", "RVC", "W", "app", "AD"])
        let e = try s.press(["press": "p", "phase": "ended"], client: "c")
        #expect(e.result["handledBy"] == ["TF1"])
        #expect(wire(s.livePresses) == [])
        expectError(.pressNotFound) { _ = try s.press(["press": "p", "phase": "ended"], client: "c") }
        _ = try s.press(["press": "q", "key": "b", "phase": "began"], client: "c")
        expectError(.pressInUse) { _ = try s.press(["press": "q", "key": "b", "phase": "began"], client: "c") }
        expectError(.pressInUse) { _ = try s.press(["press": "q", "phase": "ended"], client: "d") }
        expectError(.invalidParams) { _ = try s.press(["press": "r", "phase": "began"], client: "c") }
    }

    @Test("E2 a press whose responder leaves its window gets pressesCancelled")
    func e2PressCancelledOnRemoval() throws {
        var s = try session(
            fixtureF([
                v(
                    "P", 0, 0, 200, 200, #""handles": {"pressesCancelled": "handle"}"#,
                    children: [v("TF", 0, 0, 100, 40, kind: "textField")])
            ]))
        _ = try s.become("TF")
        _ = try s.press(["press": "p", "key": "a", "phase": "began"], client: "c")
        let c = try #require(try s.ops(#"{"op": "remove", "id": "P"}"#).consequences)
        #expect(c.result["presses"]?[0]?["handledBy"] == ["P"])
        #expect(wire(s.livePresses) == [])
    }

    @Test("E3 with no first responder the event starts at the key window")
    func e3KeyWindow() throws {
        var s = try session(fixtureF(w: #""handles": {"motionBegan": "handle"}"#))
        let d = try s.motion(["subtype": "shake", "phase": "began"])
        #expect(d.result["start"] == "W")
        #expect(d.result["handledBy"] == ["W"])
        // No key window at all: nothing to start at.
        var nokey = try session(
            #"{"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window", "frame": [0, 0, 10, 10]}]}"#
        )
        let e = try nokey.motion(["subtype": "shake", "phase": "began"])
        #expect(e.result["start"] == .null)
        #expect(steps(e, "discard").first?["reason"] == "no-key-window")
    }
}
