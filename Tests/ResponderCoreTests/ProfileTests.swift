import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@Suite("Dispatch profile switches")
struct ProfileTests {
    func profile(_ text: String) throws(RPCError) -> Profile { try Profile(json: json(text)) }

    @Test("the uikit profile is the default and round-trips through JSON; bad fields are named")
    func jsonRoundTrip() throws {
        #expect(try profile("{}") == .uikit)
        #expect(try profile(#"{"name": "uikit"}"#) == .uikit)
        #expect(try Profile(json: Profile.uikit.json) == .uikit)
        let custom = try profile(
            #"{"alphaBoundary": "exclusive", "nilTargetStart": "senderOnly", "controlSlop": 0, "noFirstResponder": "drop", "becomeOrder": "resignFirst", "touchOnRemoval": "drop"}"#
        )
        #expect(custom != .uikit)
        #expect(try Profile(json: custom.json) == custom)
        #expect(Profile.uikit.json["controlSlop"] == 70)
        for bad in [
            #"{"alphaBoundry": "exclusive"}"#, #"{"alphaBoundary": "maybe"}"#, #"{"name": "android"}"#,
            #"{"controlSlop": -1}"#, #"{"controlSlop": "70"}"#
        ] {
            do {
                _ = try profile(bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.name == .invalidParams)
                #expect(error.detail("field")?.stringValue?.hasPrefix("profile.") == true)
            }
        }
    }

    @Test("the profile names the session's dispatch model; uikit is the only one")
    func model() throws {
        #expect(Profile.uikit.model == .uikit)
        #expect(try profile(#"{"name": "uikit", "tapSlop": 4}"#).model == .uikit)
        #expect(Profile.uikit.json["name"] == .string(DispatchModelName.uikit.rawValue))
        #expect(DispatchModelName.allCases == [.uikit])
        do {
            _ = try profile(#"{"name": "android"}"#)
            Issue.record("accepted android")
        } catch {
            #expect(error.message == #"profile.name: unknown profile "android" (expected uikit)"#)
        }
    }

    @Test("H2 alphaBoundary exclusive: alpha exactly 0.01 is not hittable")
    func alphaBoundary() throws {
        let tree = fixtureF([v("V", 0, 0, 100, 100, #""alpha": 0.01"#)])
        #expect(try session(tree).hit(10, 10)["view"] == "V")
        let s = try session(tree, profile: profile(#"{"alphaBoundary": "exclusive"}"#))
        let a = try s.hit(10, 10)
        #expect(a["view"] == "R")
        #expect(visit(a, "V")?["reason"] == "alpha")
    }

    @Test("A3 nilTargetStart senderOnly and firstResponderOnly")
    func nilTargetStart() throws {
        let tree = fixtureF(
            [
                v("P", 0, 0, 100, 100, #""handles": {"tap:": "handle"}"#, children: [button()]),
                v("TF", 0, 200, 100, 40, kind: "textField")
            ], rvc: #""handles": {"tap:": "handle"}"#)
        var sender = try session(tree, profile: profile(#"{"nilTargetStart": "senderOnly"}"#))
        _ = try sender.become("TF")
        #expect(try sender.sendAction(["action": "tap:", "target": nil, "sender": "Btn"]).result["by"] == "P")
        var frOnly = try session(tree, profile: profile(#"{"nilTargetStart": "firstResponderOnly"}"#))
        #expect(
            try frOnly.sendAction(["action": "tap:", "target": nil, "sender": "Btn"]).result["visited"] == ["app", "AD"]
        )
        _ = try frOnly.become("TF")
        #expect(try frOnly.sendAction(["action": "tap:", "target": nil, "sender": "Btn"]).result["by"] == "RVC")
    }

    @Test("T3 controlSlop 0: leaving the bounds at all is a drag exit")
    func controlSlop() throws {
        var s = try session(
            fixtureF([v("Btn", 100, 100, 50, 50, kind: "control")]), profile: profile(#"{"controlSlop": 0}"#))
        _ = try s.phase("t", "began", 110, 110)
        #expect(strings(try s.phase("t", "moved", 149, 149)["controlEvents"]) == ["touchDragInside"])
        #expect(strings(try s.phase("t", "moved", 150, 150)["controlEvents"]) == ["touchDragExit", "touchDragOutside"])
        #expect(strings(try s.phase("t", "ended", 151, 151)["controlEvents"]) == ["touchUpOutside"])
    }

    @Test("E3 noFirstResponder drop: the event is discarded and the trace says so")
    func noFirstResponderDrop() throws {
        var s = try session(
            fixtureF(w: #""handles": {"motionBegan": "handle"}"#), profile: profile(#"{"noFirstResponder": "drop"}"#))
        let d = try s.motion(["subtype": "shake", "phase": "began"])
        #expect(d.result["start"] == .null)
        #expect(d.result["handledBy"] == [])
        #expect(steps(d, "discard").first?["rule"] == "E3")
        let p = try s.press(["press": 1, "key": "a", "phase": "began"], client: "c")
        #expect(p.result["start"] == .null)
        let e = try s.press(["press": 1, "phase": "ended"], client: "c")
        #expect(steps(e, "discard").first?["reason"] == "no-responder")
    }

    @Test("F2 becomeOrder resignFirst: the old first responder resigns even when the new one refuses")
    func becomeOrder() throws {
        let tree = fixtureF([v("TF", 0, 0, 100, 40, kind: "textField"), v("V", 0, 100, 10, 10)])
        var docs = try session(tree, profile: profile(#"{"becomeOrder": "resignFirst"}"#))
        _ = try docs.become("TF")
        let d = try docs.become("V")
        #expect(d.result == ["result": false, "reason": "cannot-become", "resigned": "TF"])
        #expect(d.focus == [["window": "W", "from": "TF", "to": nil, "reason": "resign"]])
        #expect(docs.keyFR == .null)
        var uikit = try session(tree)
        _ = try uikit.become("TF")
        #expect(try uikit.become("V").result["resigned"] == .null)
        #expect(uikit.keyFR == "TF")
    }

    @Test("T6 touchOnRemoval drop: the touch vanishes without touchesCancelled")
    func touchOnRemovalDrop() throws {
        var s = try session(
            fixtureF([v("V", 0, 0, 100, 100, #""handles": {"touchesCancelled": "handle"}"#)]),
            profile: profile(#"{"touchOnRemoval": "drop"}"#))
        _ = try s.phase("t", "began", 10, 10)
        let c = try #require(try s.ops(#"{"op": "remove", "id": "V"}"#).consequences)
        #expect(steps(c, "deliver").isEmpty)
        #expect(steps(c, "discard").first?["rule"] == "T6")
        #expect(c.result["touches"]?[0]?["dropped"] == true)
        #expect(wire(s.liveTouches) == [])
    }
}
