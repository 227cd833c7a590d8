import ResponderCore
import ResponderProtocol
import Testing

@Suite("Touches (T1–T6, P8–P12)")
struct TouchTests {
    @Test("P1 with no handlers touchesBegan travels E → … → AD and is discarded at the end")
    func p1Delivery() throws {
        var s = try session(fixtureF(treeT1))
        let d = try s.phase("t", "began", 250, 250)
        #expect(d["view"] == "E")
        #expect(strings(d["visited"]) == ["E", "C", "A", "R", "RVC", "W", "app", "AD"])
        #expect(strings(d["handledBy"]) == [])
    }

    @Test("T1 / P8 a touch stays bound to its view after leaving it; no new hit test")
    func t1BoundForLifeP8() throws {
        let handles =
            #""handles": {"touchesBegan": "handle", "touchesMoved": "handle", "touchesEnded": "handle", "touchesCancelled": "handle"}"#
        var s = try session(fixtureF([v("V", 100, 100, 50, 50, handles)]))
        let began = try s.phase("t", "began", 110, 110)
        #expect(began["view"] == "V")
        #expect(began["localPoint"] == point(10, 10))
        let d = try s.touch(["touches": [["touch": "t", "phase": "moved", "point": point(300, 300)]]], client: "c")
        let moved = d.result["deliveries"]![0]!
        #expect(moved["view"] == "V")
        #expect(moved["localPoint"] == point(200, 200))
        #expect(strings(moved["visited"]) == ["V"])
        #expect(steps(d, "hitTest").isEmpty)
        #expect(wire(s.liveTouches).arrayValue?.count == 1)
        #expect(wire(s.liveTouches)[0]?["view"] == "V")
        let ended = try s.phase("t", "ended", 300, 300)
        #expect(ended["view"] == "V")
        #expect(strings(ended["handledBy"]) == ["V"])
        #expect(wire(s.liveTouches) == [])
    }

    @Test(
        "T1 phases are checked: began twice is TOUCH_IN_USE, another client is TOUCH_IN_USE, unknown is TOUCH_NOT_FOUND"
    )
    func t1LifecycleErrors() throws {
        var s = try session(fixtureF([v("V", 0, 0, 100, 100)]))
        _ = try s.phase("t", "began", 10, 10)
        expectError(.touchInUse) { _ = try s.phase("t", "began", 10, 10) }
        expectError(.touchInUse) { _ = try s.phase("t", "moved", 10, 10, client: "other") }
        expectError(.touchNotFound) { _ = try s.phase("nope", "moved", 10, 10) }
        _ = try s.phase("t", "ended", 10, 10)
        expectError(.touchNotFound) { _ = try s.phase("t", "ended", 10, 10) }
        // A failing request changes nothing: the began before the bad entry is rolled back.
        let before = wire(s.liveTouches)
        expectError(.touchNotFound) {
            _ = try s.touch(
                [
                    "touches": [
                        ["touch": "u", "phase": "began", "point": point(1, 1)], ["touch": "zz", "phase": "ended"]
                    ]
                ], client: "c")
        }
        #expect(wire(s.liveTouches) == before)
        expectError(.invalidParams) { _ = try s.touch(["touches": [["touch": "u", "phase": "began"]]], client: "c") }
        expectError(.invalidParams) {
            _ = try s.touch(["touches": [["touch": "u", "phase": "hover", "point": point(1, 1)]]], client: "c")
        }
        expectError(.invalidParams) {
            _ = try s.touch(
                ["touches": [["touch": "u", "phase": "began", "point": point(1, 1), "force": 1]]], client: "c")
        }
    }

    @Test("T1 stationary touches are not delivered; integer touch ids work")
    func t1Stationary() throws {
        var s = try session(fixtureF([v("V", 0, 0, 100, 100, #""handles": {"touchesMoved": "handle"}"#)]))
        _ = try s.touch(["touches": [["touch": 7, "phase": "began", "point": point(10, 10)]]], client: "c")
        let d = try s.touch(["touches": [["touch": 7, "phase": "stationary"]]], client: "c")
        let entry = d.result["deliveries"]![0]!
        #expect(entry["message"] == .null)
        #expect(entry["reason"] == "stationary")
        #expect(steps(d, "deliver").isEmpty)
        #expect(wire(s.liveTouches)[0]?["touch"] == 7)
    }

    @Test("T2 / P9 only began handled: began stops at V, moved and ended travel the chain")
    func t2OnlyBeganP9() throws {
        var s = try session(fixtureF([v("V", 100, 100, 50, 50, #""handles": {"touchesBegan": "handle"}"#)]))
        let began = try s.phase("t", "began", 110, 110)
        #expect(strings(began["visited"]) == ["V"])
        #expect(strings(began["handledBy"]) == ["V"])
        for phase in ["moved", "ended"] {
            let d = try s.phase("t", phase, 120, 120)
            #expect(strings(d["visited"]) == ["V", "R", "RVC", "W", "app", "AD"])
            #expect(strings(d["handledBy"]) == [])
        }
    }

    @Test("T2 / P10 a handler without super stops the phase there")
    func t2WithoutSuperP10() throws {
        var s = try session(
            fixtureF(
                [v("V", 0, 0, 100, 100)], rvc: #""handles": {"touchesBegan": "handle"}"#,
                ad: #""handles": {"touchesBegan": "handle"}"#))
        let d = try s.touch(["touches": [["touch": "t", "phase": "began", "point": point(10, 10)]]], client: "c")
        let began = d.result["deliveries"]![0]!
        #expect(strings(began["visited"]) == ["V", "R", "RVC"])
        #expect(strings(began["handledBy"]) == ["RVC"])
        let dispositions = steps(d, "deliver").map { $0["disposition"]!.stringValue! }
        #expect(dispositions == ["not-handled", "not-handled", "handled"])
    }

    @Test("T2 / P11 a handler that calls super handles and passes on: RVC then AD")
    func t2WithSuperP11() throws {
        var s = try session(
            fixtureF(
                [v("V", 0, 0, 100, 100)], rvc: #""handles": {"touchesBegan": "handle+super"}"#,
                ad: #""handles": {"touchesBegan": "handle"}"#))
        let d = try s.touch(["touches": [["touch": "t", "phase": "began", "point": point(10, 10)]]], client: "c")
        let began = d.result["deliveries"]![0]!
        #expect(strings(began["visited"]) == ["V", "R", "RVC", "W", "app", "AD"])
        #expect(strings(began["handledBy"]) == ["RVC", "AD"])
        #expect(steps(d, "deliver").first { $0["to"] == "RVC" }?["disposition"] == "handled+super")
        #expect(steps(d, "discard").isEmpty)
    }

    @Test("T3 / P12 a button keeps its touches: touchDown and touchUpInside fire, RVC never sees them")
    func t3ButtonP12() throws {
        var s = try session(
            fixtureF([v("Btn", 100, 100, 50, 50, kind: "control")], rvc: #""handles": {"touchesBegan": "handle"}"#))
        let d = try s.tap(110, 110)
        let deliveries = d.result["deliveries"]!.arrayValue!
        #expect(strings(deliveries[0]["visited"]) == ["Btn"])
        #expect(strings(deliveries[0]["controlEvents"]) == ["touchDown"])
        #expect(strings(deliveries[1]["controlEvents"]) == ["touchUpInside"])
        #expect(deliveries.allSatisfy { !strings($0["visited"]).contains("RVC") })
        #expect(steps(d, "deliver").allSatisfy { $0["disposition"] == "consumed-by-control" })
        #expect(steps(d, "controlEvent").map { $0["event"]!.stringValue! } == ["touchDown", "touchUpInside"])
    }

    @Test("T3 drags use a 70-point slop: inside, exit/outside, enter/inside, up outside")
    func t3DragEventsWithSlop() throws {
        var s = try session(fixtureF([v("Btn", 100, 100, 50, 50, kind: "control")]))
        #expect(strings(try s.phase("t", "began", 110, 110)["controlEvents"]) == ["touchDown"])
        // (200, 200) is 50 points beyond the bounds: still inside with the slop.
        #expect(strings(try s.phase("t", "moved", 200, 200)["controlEvents"]) == ["touchDragInside"])
        #expect(strings(try s.phase("t", "moved", 300, 300)["controlEvents"]) == ["touchDragExit", "touchDragOutside"])
        #expect(strings(try s.phase("t", "moved", 310, 310)["controlEvents"]) == ["touchDragOutside"])
        #expect(strings(try s.phase("t", "moved", 160, 160)["controlEvents"]) == ["touchDragEnter", "touchDragInside"])
        #expect(strings(try s.phase("t", "ended", 300, 300)["controlEvents"]) == ["touchUpOutside"])
        // Cancelled → touchCancel; a double tap adds touchDownRepeat.
        _ = try s.phase("u", "began", 110, 110)
        #expect(strings(try s.phase("u", "cancelled", 110, 110)["controlEvents"]) == ["touchCancel"])
        let d = try s.tap(["point": point(110, 110), "tapCount": 2], client: "c")
        #expect(strings(d.result["deliveries"]![0]!["controlEvents"]) == ["touchDown", "touchDownRepeat"])
        // Just inside the slop and just outside it.
        _ = try s.phase("w", "began", 110, 110)
        #expect(strings(try s.phase("w", "moved", 219, 120)["controlEvents"]) == ["touchDragInside"])
        #expect(strings(try s.phase("w", "moved", 220, 120)["controlEvents"]) == ["touchDragExit", "touchDragOutside"])
    }

    @Test("T3 a touch on a control's subview is inside or outside by the control's own bounds and slop")
    func t3InsideMeasuredInTheControl() throws {
        // Lbl sits 30 points into Btn; the touch's view is Lbl, the control that takes it is Btn.
        let label = v("Lbl", 30, 30, 20, 20)
        var s = try session(fixtureF([v("Btn", 100, 100, 50, 50, kind: "control", children: [label])]))
        let began = try s.phase("t", "began", 135, 135)
        #expect(began["view"] == "Lbl" && strings(began["controlEvents"]) == ["touchDown"])
        // x 215 is 65 points right of Btn, inside with the 70-point slop; x 230 is 80 right of Btn, outside (its
        // x in Lbl's coordinates, 100, would pass for inside Btn's bounds grown by the slop).
        #expect(strings(try s.phase("t", "moved", 215, 135)["controlEvents"]) == ["touchDragInside"])
        #expect(strings(try s.phase("t", "moved", 230, 135)["controlEvents"]) == ["touchDragExit", "touchDragOutside"])
        #expect(strings(try s.phase("t", "ended", 215, 135)["controlEvents"]) == ["touchUpInside"])
    }

    @Test("T3 a control's own override without super stops the touch with no control events")
    func t3ControlOverride() throws {
        var s = try session(
            fixtureF([v("Btn", 0, 0, 50, 50, kind: "control", #""handles": {"touchesBegan": "handle"}"#)]))
        let began = try s.phase("t", "began", 10, 10)
        #expect(strings(began["handledBy"]) == ["Btn"])
        #expect(strings(began["controlEvents"]) == [])
    }

    @Test("T4 without multipleTouchEnabled a view gets only the first touch until it ends")
    func t4MultipleTouch() throws {
        var s = try session(
            fixtureF([v("V", 0, 0, 200, 200, #""handles": {"touchesBegan": "handle", "touchesEnded": "handle"}"#)]))
        let d = try s.touch(
            [
                "touches": [
                    ["touch": "a", "phase": "began", "point": point(10, 10)],
                    ["touch": "b", "phase": "began", "point": point(50, 50)]
                ]
            ], client: "c")
        let entries = d.result["deliveries"]!.arrayValue!
        #expect(entries[0]["view"] == "V")
        #expect(entries[1]["view"] == .null)
        #expect(entries[1]["reason"] == "multiple-touch-disabled")
        #expect(entries[1]["rule"] == "T4")
        #expect(steps(d, "discard").first?["rule"] == "T4")
        // b stays undelivered for its whole life, even after a ends.
        _ = try s.phase("a", "ended", 10, 10)
        let bEnded = try s.phase("b", "ended", 50, 50)
        #expect(bEnded["view"] == .null)
        // With multipleTouchEnabled both touches reach the view.
        var m = try session(fixtureF([v("V", 0, 0, 200, 200, #""multipleTouchEnabled": true"#)]))
        _ = try m.phase("a", "began", 10, 10)
        #expect(try m.phase("b", "began", 50, 50)["view"] == "V")
    }

    @Test("T5 exclusiveTouch: an exclusive view tracking a touch blocks the window, and waits for others")
    func t5ExclusiveTouch() throws {
        let views = [v("X", 0, 0, 100, 100, #""exclusiveTouch": true"#), v("Y", 200, 0, 100, 100)]
        let other =
            #"{"id": "W2", "kind": "window", "windowLevel": 1, "frame": [0, 600, 400, 200], "children": [\#(v("Z", 0, 0, 100, 100))]}"#
        var s = try session(fixtureF(views, windows: [other]))
        _ = try s.phase("x", "began", 10, 10)
        let y = try s.phase("y", "began", 210, 10)
        #expect(y["view"] == .null)
        #expect(y["reason"] == "exclusive-touch")
        #expect(y["rule"] == "T5")
        // Another window is not affected.
        #expect(try s.phase("z", "began", 10, 610)["view"] == "Z")
        _ = try s.phase("x", "ended", 10, 10)
        _ = try s.phase("y", "ended", 210, 10)
        // Y tracks a touch: the exclusive X gets no new touch.
        _ = try s.phase("y2", "began", 210, 10)
        let x2 = try s.phase("x2", "began", 10, 10)
        #expect(x2["view"] == .null)
        #expect(x2["reason"] == "exclusive-touch")
        _ = try s.phase("y2", "ended", 210, 10)
        #expect(try s.phase("x3", "began", 10, 10)["view"] == "X")
    }

    @Test("T5 G1 recognizers ignore exclusiveTouch: a touch withheld from its view is observed and recognized")
    func t5RecognizersIgnoreExclusiveTouch() throws {
        let tap =
            #""gestureRecognizers": [{"id": "tapY", "kind": "tap", "targets": [{"target": "RVC", "action": "t:"}]}]"#
        let views = [v("X", 0, 0, 100, 100, #""exclusiveTouch": true"#), v("Y", 200, 0, 100, 100, tap)]
        var s = try session(fixtureF(views, rvc: #""handles": {"t:": "handle"}"#))
        _ = try s.phase("x", "began", 10, 10)
        let d = try s.touch(
            [
                "touches": [
                    ["touch": "y", "phase": "began", "point": point(210, 10)], ["touch": "y", "phase": "ended"]
                ]
            ], client: "c")
        #expect(d.outcome.deliveries.map(\.reason) == [.exclusiveTouch, .exclusiveTouch])
        #expect(d.outcome.deliveries[1].gestureActions.map(\.action) == ["t:"])
    }

    @Test("T6 a touch whose view leaves the window gets touchesCancelled up its remaining chain")
    func t6CancelOnRemoval() throws {
        var s = try session(
            fixtureF([
                v(
                    "P", 0, 0, 200, 200, #""handles": {"touchesCancelled": "handle"}"#,
                    children: [v("V", 0, 0, 100, 100)])
            ]))
        _ = try s.phase("t", "began", 10, 10)
        let change = try s.ops(#"{"op": "remove", "id": "P"}"#)
        let c = try #require(change.consequences)
        #expect(c.trace.kind == .treeChange)
        let entry = c.result["touches"]![0]!
        #expect(entry["phase"] == "cancelled")
        #expect(entry["message"] == "touchesCancelled")
        #expect(strings(entry["visited"]) == ["V", "P"])
        #expect(strings(entry["handledBy"]) == ["P"])
        #expect(steps(c, "deliver").allSatisfy { $0["rule"] == "T6" })
        #expect(wire(s.liveTouches) == [])
        expectError(.touchNotFound) { _ = try s.phase("t", "ended", 10, 10) }
    }

    @Test("T6 moving the view to another window cancels; moving within the window does not")
    func t6MoveToOtherWindow() throws {
        let other = #"{"id": "W2", "kind": "window", "frame": [0, 0, 400, 800], "hidden": true}"#
        var s = try session(fixtureF([v("V", 0, 0, 100, 100), v("Q", 100, 0, 100, 100)], windows: [other]))
        _ = try s.phase("t", "began", 10, 10)
        #expect(try s.ops(#"{"op": "move", "id": "V", "parent": "Q"}"#).consequences == nil)
        let c = try #require(try s.ops(#"{"op": "move", "id": "V", "parent": "W2"}"#).consequences)
        #expect(strings(c.result["touches"]![0]!["visited"]) == ["V", "W2", "app", "AD"])
    }

    @Test("T6 a control tracking a removed touch sends touchCancel")
    func t6ControlCancel() throws {
        var s = try session(
            fixtureF(
                [
                    v(
                        "Btn", 0, 0, 50, 50, kind: "control",
                        #""targets": [{"event": "touchCancel", "action": "cancelled:", "target": "RVC"}]"#)
                ], rvc: #""handles": {"cancelled:": "handle"}"#))
        _ = try s.phase("t", "began", 10, 10)
        let c = try #require(try s.ops(#"{"op": "remove", "id": "Btn"}"#).consequences)
        #expect(steps(c, "controlEvent").map { $0["event"]!.stringValue! } == ["touchCancel"])
        #expect(steps(c, "action").first?["by"] == "RVC")
    }

    @Test("tap uses fresh touch ids and leaves no live touch")
    func tapFreshIDs() throws {
        var s = try session(fixtureF([v("V", 0, 0, 100, 100)]))
        _ = try s.touch(["touches": [["touch": "tap-1", "phase": "began", "point": point(10, 10)]]], client: "c")
        let d = try s.tap(50, 50)
        let ids = d.result["deliveries"]!.arrayValue!.map { $0["touch"]! }
        #expect(ids[0] == ids[1])
        #expect(ids[0] != "tap-1")
        #expect(d.result["deliveries"]![1]!["phase"] == "ended")
        #expect(wire(s.liveTouches).arrayValue?.count == 1)
    }
}
