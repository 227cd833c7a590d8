import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@Suite("Gesture recognizers (G1–G11, P13–P13e)")
struct GestureTests {
    /// Fixture F with V(100,100,100,100) under R; `r` and `vExtra` add recognizers.
    func world(
        r: String = "", v vExtra: String = "", vKind: String = "view", more: [String] = [], profile: Profile = .uikit
    ) throws -> SessionState {
        let vMembers = [handlesAll, vExtra].filter { !$0.isEmpty }.joined(separator: ", ")
        return try session(
            fixtureF([v("V", 100, 100, 100, 100, kind: vKind, vMembers)] + more, rExtra: r, rvc: rvcHandles),
            profile: profile)
    }

    @Test(
        "G1 recognizers of the hit view and its ancestors observe, deepest first, in attachment order; disabled and refusing ones do not"
    )
    func g1WhoObserves() throws {
        var s = try session(
            fixtureF(
                [
                    v("V", 100, 100, 100, 100, recognizers(rec("v1", "tap"), rec("v2", "pan"))),
                    v("Sib", 0, 0, 50, 50, recognizers(rec("sib", "tap")))
                ],
                rExtra: recognizers(
                    rec("r1", "tap", #""enabled": false"#), rec("r2", "tap", #""shouldReceiveTouch": false"#),
                    rec("r3", "longPress")),
                rvc: rvcHandles, w: recognizers(rec("w1", "swipe"))))
        let d = try s.touches([("t", "began", 150, 150, nil)])
        let observed = d.trace.steps.compactMap { step -> String? in
            guard case .observe(let r, let view, _, let observes, let reason) = step else { return nil }
            return "\(r)@\(view):\(observes)\(reason.map { "(\($0.rawValue))" } ?? "")"
        }
        #expect(
            observed == [
                "v1@V:true", "v2@V:true", "r1@R:false(disabled)", "r2@R:false(should-receive-touch-false)", "r3@R:true",
                "w1@W:true"
            ])
        let state = Dictionary(uniqueKeysWithValues: s.recognizers.map { ($0.recognizer, $0) })
        #expect(state["v1"]?.touches == [.string("t")] && state["w1"]?.touches == [.string("t")])
        #expect(state["sib"]?.touches == [] && state["r1"]?.touches == [])
        // Recognizers get the phase before the view does: observe steps come before V's touchesBegan.
        let firstDeliver = d.trace.steps.firstIndex { $0.name == "deliver" }!
        let lastObserve = d.trace.steps.lastIndex { $0.name == "observe" }!
        #expect(lastObserve < firstDeliver)
    }

    @Test(
        "G2 a continuous recognizer goes possible → began → changed → ended and is reset; a tap that moves too far fails"
    )
    func g2States() throws {
        var s = try world(r: recognizers(rec("pan", "pan")))
        let d = try s.touches([
            ("t", "began", 150, 150, nil), ("t", "moved", 155, 150, nil), ("t", "moved", 165, 150, nil),
            ("t", "moved", 175, 150, nil), ("t", "ended", 175, 150, nil)
        ])
        #expect(
            transitions(d) == ["pan:possible→began", "pan:began→changed", "pan:changed→ended", "pan:ended→possible"])
        #expect(gestureSteps(d).map(\.rule) == [.g2, .g2, .g2, .g2])
        #expect(gestureSteps(d).first?.reason == .threshold && gestureSteps(d).last?.reason == .reset)
        #expect(s.recognizers.first?.state == .possible)

        var t = try world(r: recognizers(rec("tap1", "tap")))
        let moved = try t.touches([
            ("t", "began", 150, 150, nil), ("t", "moved", 165, 150, nil), ("t", "ended", 165, 150, nil)
        ])
        #expect(transitions(moved) == ["tap1:possible→failed", "tap1:failed→possible"])
        #expect(gestureSteps(moved).first?.reason == .movedTooFar)
        #expect(viewMessages(moved, "V") == ["touchesBegan", "touchesMoved", "touchesEnded"])
        #expect(gestureActions(moved).isEmpty)
    }

    @Test(
        "G3 a pan sends its action at began, at each changed and at ended; with unrecognizedSelector ignore a target that does not implement it is reported"
    )
    func g3Actions() throws {
        // Profile `ignore`: a target lacking the action fails quietly and the dispatch goes on (G3, A2).
        var ignore = Profile.uikit
        ignore.unrecognizedSelector = .ignore
        let targets =
            #""targets": [{"target": "RVC", "action": "pan:"}, {"target": "V", "action": "pan:"}, {"target": "Gone", "action": "pan:"}]"#
        var s = try world(r: recognizers(rec("pan", "pan", targets)), profile: ignore)
        let d = try s.touches([
            ("t", "began", 150, 150, nil), ("t", "moved", 170, 150, nil), ("t", "moved", 180, 150, nil),
            ("t", "ended", 180, 150, nil)
        ])
        let perPhase = ["pan→pan:", "pan→pan:(not-implemented)", "pan→pan:(target-missing)"]
        #expect(gestureActions(d) == perPhase + perPhase + perPhase)
        // The actions are in the outcome next to the deliveries they came with.
        #expect(d.outcome.deliveries[1].gestureActions.count == 3 && d.outcome.deliveries[3].gestureActions.count == 3)
    }

    @Test("G3 a pair listed twice is sent once; a target lacking the action crashes and nothing after it happens")
    func g3AmendedPairsAndCrash() throws {
        let twice = #""targets": [{"target": "RVC", "action": "pan:"}, {"target": "RVC", "action": "pan:"}]"#
        var s = try world(r: recognizers(rec("t", "tap", twice)))
        #expect(gestureActions(try s.tap(150, 150)) == ["t→pan:"])
        let lacking = #""targets": [{"target": "V", "action": "pan:"}, {"target": "RVC", "action": "pan:"}]"#
        var c = try world(r: recognizers(rec("t", "tap", #""cancelsTouchesInView": false, "# + lacking)))
        let d = try c.tap(150, 150)
        #expect(gestureActions(d) == ["t→pan:(unrecognized-selector)"])
        #expect(d.outcome.crashed == Crash(target: "V", action: "pan:", recognizer: "t", rule: .g3))
        // The view's touchesEnded comes after the recognizer's action: it is not delivered.
        #expect(viewMessages(d, "V") == ["touchesBegan"])
        #expect(d.outcome.deliveries[1].reason == .crashed)
    }

    @Test("G4 the deepest of two taps on the same touch wins and the other fails; simultaneousWith lets both recognize")
    func g4Exclusion() throws {
        var s = try world(r: recognizers(rec("outer", "tap")), v: recognizers(rec("inner", "tap")))
        let d = try s.tap(150, 150)
        #expect(transitions(d).prefix(2) == ["inner:possible→recognized", "outer:possible→failed"])
        #expect(
            gestureSteps(d)[1].rule == .g4 && gestureSteps(d)[1].reason == .excluded && gestureSteps(d)[1].by == "inner"
        )
        #expect(gestureActions(d) == ["inner→inner:"])

        var both = try world(
            r: recognizers(rec("outer", "tap", #""simultaneousWith": ["inner"]"#)), v: recognizers(rec("inner", "tap")))
        let d2 = try both.tap(150, 150)
        #expect(transitions(d2).prefix(2) == ["inner:possible→recognized", "outer:possible→recognized"])
        #expect(gestureActions(d2) == ["inner→inner:", "outer→outer:"])
    }

    @Test(
        "G5 / P13e a single tap that requires a double tap to fail waits for it, and fails when the double tap recognizes"
    )
    func g5P13e() throws {
        let single = rec("single", "tap", #""requireToFail": ["double"]"#)
        let double = rec("double", "tap", #""numberOfTapsRequired": 2"#)
        var s = try world(v: recognizers(single, double))
        let first = try s.tap(150, 150)
        #expect(transitions(first) == [])
        #expect(first.trace.steps.contains(.gestureWait(recognizer: "single", waitingFor: ["double"])))
        #expect(viewMessages(first, "V") == ["touchesBegan"])
        #expect(
            first.outcome.deliveries[1].reason == .held && first.outcome.deliveries[1].heldBy == ["single", "double"])
        #expect(s.recognizers.first { $0.recognizer == "single" }?.waitingFor == ["double"])
        // Not yet: the double tap may still come (tapInterval 0.35 s).
        #expect(transitions(try s.advance(to: 0.3)) == [])
        let later = try s.advance(to: 0.4)
        #expect(
            transitions(later) == [
                "double:possible→failed", "single:possible→recognized", "single:recognized→possible",
                "double:failed→possible"
            ])
        #expect(gestureSteps(later)[0].rule == .g11 && gestureSteps(later)[0].reason == .timedOut)
        #expect(gestureSteps(later)[1].rule == .g5 && gestureSteps(later)[1].reason == .requiredFailed)
        #expect(gestureActions(later) == ["single→single:"])
        // It recognized with cancelsTouchesInView: the held touchesEnded becomes touchesCancelled (G7).
        #expect(viewMessages(later, "V") == ["touchesCancelled"])
        #expect(later.outcome.gestureDeliveries.map(\.reason) == [.cancelledByGesture])

        var quick = try world(v: recognizers(single, double))
        _ = try quick.tap(150, 150)
        let second = try quick.tap(150, 150)
        #expect(gestureActions(second) == ["double→double:"])
        let failed = gestureSteps(second).first { $0.recognizer == "single" && $0.to == .failed }
        #expect(failed?.rule == .g5 && failed?.reason == .requiredRecognized && failed?.by == "double")
        #expect(gestureActions(try quick.advance(to: 1)).isEmpty)
    }

    @Test("G6 shouldBegin false makes a recognizer fail instead of recognizing; the view keeps its touch")
    func g6ShouldBegin() throws {
        var s = try world(r: recognizers(rec("tap1", "tap", #""shouldBegin": false"#)))
        let d = try s.tap(150, 150)
        #expect(transitions(d).first == "tap1:possible→failed")
        #expect(gestureSteps(d).first?.rule == .g6 && gestureSteps(d).first?.reason == .shouldBeginFalse)
        #expect(viewMessages(d, "V") == ["touchesBegan", "touchesEnded"])
        #expect(gestureActions(d).isEmpty)
    }

    @Test(
        "G7 / P13 a tap recognizer on R: V gets touchesBegan, then touchesCancelled instead of touchesEnded, then the action"
    )
    func g7P13() throws {
        var s = try world(r: recognizers(rec("tap1", "tap")))
        let d = try s.tap(150, 150)
        #expect(viewMessages(d, "V") == ["touchesBegan", "touchesCancelled"])
        #expect(transitions(d) == ["tap1:possible→recognized", "tap1:recognized→possible"])
        #expect(gestureActions(d) == ["tap1→tap1:"])
        let ended = d.outcome.deliveries[1]
        #expect(ended.reason == .cancelledByGesture && ended.rule == .g7 && ended.handledBy == [])
        #expect(ended.gestureDeliveries.map(\.message) == ["touchesCancelled"])
        let names = d.trace.steps.map(\.name)
        #expect(names.firstIndex(of: "gestureAction")! > names.lastIndex(of: "deliver")!)
        #expect(
            d.trace.steps.contains(
                .discard(
                    message: "touchesEnded", reason: .cancelledByGesture, rule: .g7, tag: .touch("tap-1"),
                    blockedBy: nil, view: "V")))

        var keep = try world(r: recognizers(rec("tap1", "tap", #""cancelsTouchesInView": false"#)))
        let d2 = try keep.tap(150, 150)
        #expect(viewMessages(d2, "V") == ["touchesBegan", "touchesEnded"])
        #expect(gestureActions(d2) == ["tap1→tap1:"])
    }

    @Test(
        "G7 / G10 / P13c a pan on a container pre-empts the button inside it: touchCancel and no action; the pan's actions"
    )
    func g7P13c() throws {
        let button = v(
            "Btn", 0, 0, 100, 100, kind: "control",
            #""targets": [{"event": "touchUpInside", "action": "tap:", "target": "RVC"}]"#)
        var s = try session(
            fixtureF([v("P", 100, 100, 200, 200, recognizers(rec("pan", "pan")), children: [button])], rvc: rvcHandles))
        let down = try s.touches([("t", "began", 120, 120, nil), ("t", "moved", 125, 120, nil)])
        #expect(controlEvents(down) == ["touchDown", "touchDragInside"])
        #expect(transitions(down).isEmpty)
        let drag = try s.touches([
            ("t", "moved", 135, 120, nil), ("t", "moved", 160, 120, nil), ("t", "ended", 160, 120, nil)
        ])
        #expect(
            transitions(drag) == ["pan:possible→began", "pan:began→changed", "pan:changed→ended", "pan:ended→possible"])
        #expect(controlEvents(drag) == ["touchCancel"])
        #expect(!drag.trace.steps.contains { if case .action = $0 { return true } else { return false } })
        #expect(gestureActions(drag) == ["pan→pan:", "pan→pan:", "pan→pan:"])
        #expect(drag.outcome.deliveries[0].gestureDeliveries.first?.controlEvents == [.touchCancel])
    }

    @Test(
        "G8 / P13b with delaysTouchesBegan the view gets nothing at all; when the recognizer fails the held phases arrive in order"
    )
    func g8DelaysBegan() throws {
        var s = try world(r: recognizers(rec("tap1", "tap", #""delaysTouchesBegan": true"#)))
        let d = try s.tap(150, 150)
        #expect(viewMessages(d, "V") == [])
        #expect(d.outcome.deliveries[0].reason == .held && d.outcome.deliveries[0].rule == .g8)
        #expect(d.outcome.deliveries[1].reason == .takenByGesture)
        #expect(gestureActions(d) == ["tap1→tap1:"])

        var f = try world(r: recognizers(rec("tap1", "tap", #""delaysTouchesBegan": true"#)))
        let began = try f.touches([("t", "began", 150, 150, nil), ("t", "moved", 152, 150, nil)])
        #expect(viewMessages(began, "V") == [])
        #expect(wire(f.liveTouches)[0]?["heldBy"] == ["tap1"])
        let far = try f.touches([("t", "moved", 170, 150, nil)])
        #expect(transitions(far).first == "tap1:possible→failed")
        #expect(viewMessages(far, "V") == ["touchesBegan", "touchesMoved", "touchesMoved"])
        #expect(far.outcome.deliveries[0].gestureDeliveries.map(\.reason) == [.released, .released])
        #expect(far.trace.steps.contains(.release(touch: "t", message: "touchesBegan", by: "tap1", rule: .g8)))
    }

    @Test(
        "G9 / P13d a long press released at 0.3 s fails and the view gets touchesEnded; held past 0.5 s it begins and cancels the view"
    )
    func g9P13d() throws {
        var early = try world(v: recognizers(rec("hold", "longPress")))
        _ = try early.touches([("t", "began", 150, 150, 0)])
        let released = try early.touches([("t", "ended", 150, 150, 0.3)])
        #expect(transitions(released).first == "hold:possible→failed")
        #expect(gestureSteps(released).first?.reason == .releasedEarly)
        #expect(viewMessages(released, "V") == ["touchesEnded"])

        var held = try world(v: recognizers(rec("hold", "longPress")))
        _ = try held.touches([("t", "began", 150, 150, nil)])
        #expect(transitions(try held.advance(to: 0.49)) == [])
        let d = try held.advance(to: 0.6)
        #expect(transitions(d) == ["hold:possible→began"])
        #expect(gestureSteps(d).first?.rule == .g11 && gestureSteps(d).first?.reason == .durationElapsed)
        #expect(viewMessages(d, "V") == ["touchesCancelled"])
        #expect(gestureActions(d) == ["hold→hold:"])
        let end = try held.touches([("t", "ended", 150, 150, nil)])
        #expect(transitions(end) == ["hold:began→ended", "hold:ended→possible"])
        #expect(viewMessages(end, "V") == [])

        // delaysTouchesEnded false: touchesEnded is not held while a double tap waits.
        var s = try world(
            v: recognizers(rec("double", "tap", #""numberOfTapsRequired": 2, "delaysTouchesEnded": false"#)))
        #expect(viewMessages(try s.tap(150, 150), "V") == ["touchesBegan", "touchesEnded"])
        var h = try world(v: recognizers(rec("double", "tap", #""numberOfTapsRequired": 2"#)))
        let first = try h.tap(150, 150)
        #expect(viewMessages(first, "V") == ["touchesBegan"])
        #expect(first.trace.steps.contains(.held(touch: "tap-1", message: "touchesEnded", by: ["double"], rule: .g9)))
        let gaveUp = try h.advance(to: 1)
        #expect(viewMessages(gaveUp, "V") == ["touchesEnded"])
        #expect(
            gaveUp.outcome.gestureDeliveries.first?.reason == .released
                && gaveUp.outcome.gestureDeliveries.first?.rule == .g9)
    }

    @Test(
        "G10 a tap recognizer on a button's superview does not pre-empt the button's tap; one on the button itself wins"
    )
    func g10Controls() throws {
        let targets = #""targets": [{"event": "touchUpInside", "action": "tap1:", "target": "RVC"}]"#
        var s = try session(
            fixtureF(
                [v("Btn", 100, 100, 100, 50, kind: "control", targets)], rExtra: recognizers(rec("bg", "tap")),
                rvc: rvcHandles))
        let d = try s.tap(150, 120)
        #expect(controlEvents(d) == ["touchDown", "touchUpInside"])
        let failed = gestureSteps(d).first
        #expect(
            failed?.to == .failed && failed?.rule == .g10 && failed?.reason == .controlDefaultAction
                && failed?.by == "Btn")
        #expect(gestureActions(d).isEmpty)

        var own = try session(
            fixtureF(
                [v("Btn", 100, 100, 100, 50, kind: "control", targets + ", " + recognizers(rec("mine", "tap")))],
                rvc: rvcHandles))
        let d2 = try own.tap(150, 120)
        #expect(transitions(d2).first == "mine:possible→recognized")
        #expect(controlEvents(d2) == ["touchDown", "touchCancel"])

        // A slider keeps its drag from a pan on its superview (by class).
        var slider = try session(
            fixtureF(
                [v("Sl", 100, 100, 200, 40, kind: "control", #""class": "UISlider""#)],
                rExtra: recognizers(rec("pan", "pan")), rvc: rvcHandles))
        let drag = try slider.touches([
            ("t", "began", 110, 120, nil), ("t", "moved", 150, 120, nil), ("t", "ended", 150, 120, nil)
        ])
        #expect(gestureSteps(drag).first?.reason == .controlDefaultAction)
        // K4 (1.6): the drag began on the thumb (value 0, at the slider's left end), so it moves it.
        #expect(controlEvents(drag) == ["touchDown", "touchDragInside", "valueChanged", "touchUpInside"])
    }

    @Test(
        "G11 time comes from the events: a touch's time never goes back, clock.advance moves it, the same inputs give the same trace"
    )
    func g11Time() throws {
        var s = try world(v: recognizers(rec("hold", "longPress")))
        _ = try s.touches([("t", "began", 150, 150, 2)])
        #expect(s.clock == 2)
        expectError(.invalidParams) { _ = try s.touches([("t", "moved", 150, 150, 1)]) }
        expectError(.invalidParams) { _ = try s.advance(to: 1) }
        // A touch's time passing the deadline first lets the long press begin, then the touch's own phase.
        let d = try s.touches([("t", "moved", 150, 150, 3)])
        #expect(transitions(d) == ["hold:possible→began", "hold:began→changed"])
        #expect(s.clock == 3)

        func run() throws -> [JSON] {
            var w = try world(
                r: recognizers(rec("pan", "pan"), rec("double", "tap", #""numberOfTapsRequired": 2"#)),
                v: recognizers(rec("hold", "longPress"), rec("swipe", "swipe")))
            var out: [JSON] = []
            out.append(try w.touches([("a", "began", 150, 150, 0.1), ("b", "began", 160, 160, 0.2)]).traceJSON)
            out.append(try w.advance(to: 0.7).traceJSON)
            out.append(
                try w.touches([
                    ("a", "moved", 190, 150, 0.8), ("a", "ended", 190, 150, 0.9), ("b", "cancelled", 160, 160, 0.9)
                ]).traceJSON)
            out.append(try w.tap(["point": point(150, 150), "time": 1.0], client: "c").traceJSON)
            out.append(try w.advance(to: 2).traceJSON)
            return out
        }
        let a = try run(), b = try run()
        #expect(a.map { JSONCodec.encodeString($0) } == b.map { JSONCodec.encodeString($0) })
    }

    @Test(
        "Swipes recognize fast moves in their direction and fail slow or wrong ones; pinch and rotation need two fingers"
    )
    func swipePinchRotation() throws {
        var s = try world(v: recognizers(rec("swipe", "swipe", #""direction": ["right", "up"]"#)))
        let right = try s.touches([
            ("t", "began", 110, 150, 0), ("t", "moved", 170, 155, 0.1), ("t", "ended", 170, 155, 0.1)
        ])
        #expect(transitions(right).first == "swipe:possible→recognized")
        let down = try s.touches([
            ("u", "began", 150, 110, 1), ("u", "moved", 150, 170, 1.1), ("u", "ended", 150, 170, 1.1)
        ])
        #expect(gestureSteps(down).first?.reason == .wrongDirection)
        _ = try s.touches([("w", "began", 110, 150, 2)])
        let slow = try s.advance(to: 2.6)
        #expect(gestureSteps(slow).first?.reason == .tooSlow && gestureSteps(slow).first?.rule == .g11)

        var p = try world(
            v: #""multipleTouchEnabled": true, "#
                + recognizers(rec("pinch", "pinch"), rec("rotate", "rotation", #""simultaneousWith": ["pinch"]"#)))
        let one = try p.touches([("a", "began", 140, 150, nil), ("a", "moved", 120, 150, nil)])
        #expect(transitions(one).isEmpty)
        let two = try p.touches([("b", "began", 160, 150, nil), ("b", "moved", 180, 150, nil)])
        #expect(transitions(two) == ["pinch:possible→began"])
        let turn = try p.touches([("b", "moved", 160, 190, nil)])
        #expect(transitions(turn) == ["pinch:began→changed", "rotate:possible→began"])
    }

    @Test(
        "A recognizer whose view leaves the window mid-gesture is cancelled in the treeChange trace, as T6 cancels the touch"
    )
    func removalCancels() throws {
        var s = try session(
            fixtureF(
                [
                    v(
                        "P", 0, 0, 400, 400, recognizers(rec("pan", "pan")),
                        children: [v("V", 100, 100, 100, 100, handlesAll)])
                ], rvc: rvcHandles))
        _ = try s.touches([("t", "began", 150, 150, nil), ("t", "moved", 180, 150, nil)])
        #expect(s.recognizers.first?.state == .began)
        let change = try s.ops(#"{"op": "update", "id": "P", "set": {"gestureRecognizers": []}}"#)
        let outcome = try #require(change.consequences)
        #expect(transitions(outcome) == ["pan:began→cancelled", "pan:cancelled→possible"])
        #expect(gestureSteps(outcome).first?.reason == .removed)
        #expect(wire(outcome.outcome)["gestures"]?.arrayValue?.count == 2)
        #expect(s.recognizers.isEmpty)
        // The touch itself is still live (its view stayed); it was taken by the pan, so V gets nothing more.
        let end = try s.touches([("t", "ended", 180, 150, nil)])
        #expect(viewMessages(end, "V") == [])
    }

    @Test(
        "Recognizers are validated with field paths; ids are unique in the session; references must name recognizers; nothing changes on error"
    )
    func validation() throws {
        var s = try world(r: recognizers(rec("a", "tap")))
        let revision = s.world.revision
        func expectField(
            _ name: ErrorName, _ field: String, _ op: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            do {
                _ = try s.ops(op)
                Issue.record("expected \(name.rawValue)", sourceLocation: sourceLocation)
            } catch let e as RPCError {
                #expect(
                    e.name == name && e.detail("field")?.stringValue == field, "got \(e)",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
            }
        }
        expectField(
            .invalidNode, "ops[0].set.gestureRecognizers[1].kind",
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "x", "kind": "tap"}, {"id": "y", "kind": "hover"}]}}"#
        )
        expectField(
            .invalidNode, "ops[0].set.gestureRecognizers[0].numberOfTapsRequired",
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "x", "kind": "pan", "numberOfTapsRequired": 2}]}}"#
        )
        expectField(
            .invalidNode, "ops[0].set.gestureRecognizers[0].speed",
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "x", "kind": "pan", "speed": 2}]}}"#)
        expectField(
            .invalidNode, "ops[0].set.gestureRecognizers[0].requireToFail[0]",
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "x", "kind": "tap", "requireToFail": ["nope"]}]}}"#
        )
        expectField(
            .duplicateID, "ops[0].set.gestureRecognizers[0].id",
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "a", "kind": "tap"}]}}"#)
        expectField(
            .invalidNode, "ops[0].node.gestureRecognizers[0].targets[0].target",
            #"{"op": "insert", "parent": "R", "node": {"id": "N", "kind": "view", "gestureRecognizers": [{"id": "n", "kind": "tap", "targets": [{"target": "", "action": "x:"}]}]}}"#
        )
        #expect(s.world.revision == revision && s.world["V"]?.gestureRecognizers == [])
        #expect(s.recognizers.map(\.recognizer) == ["a"])
        // A reference to a recognizer a later op of the same batch adds is fine.
        _ = try s.ops(
            #"{"op": "update", "id": "V", "set": {"gestureRecognizers": [{"id": "x", "kind": "tap", "requireToFail": ["y"]}]}}"#,
            #"{"op": "insert", "parent": "R", "node": {"id": "N", "kind": "view", "gestureRecognizers": [{"id": "y", "kind": "tap", "numberOfTapsRequired": 2}]}}"#
        )
        #expect(s.recognizers.map(\.recognizer) == ["a", "x", "y"])
        // Removing the node takes its recognizers out of the session; the dangling reference is kept and ignored.
        _ = try s.ops(#"{"op": "remove", "id": "N"}"#)
        #expect(s.recognizers.map(\.recognizer) == ["a", "x"])
        let d = try s.tap(150, 150)
        #expect(transitions(d).prefix(2) == ["x:possible→recognized", "a:possible→failed"])
    }

    @Test("Without recognizers a touch's trace and outcome carry nothing of them")
    func noRecognizersNoTrace() throws {
        var s = try world()
        let d = try s.tap(150, 150)
        let text = JSONCodec.encodeString(d.traceJSON)
        for word in ["gesture", "observe", "held", "release", "heldBy"] { #expect(!text.contains(word)) }
    }
}
