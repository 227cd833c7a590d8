import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// `id.field` → new value for every `change` step (K3–K8), in order.
func changes<O>(_ d: Traced<O>) -> [String] {
    d.trace.steps.compactMap { step in
        guard case .change(let c) = step else { return nil }
        return "\(c.id).\(c.field)=\(c.to)"
    }
}

/// The actions a touch's deliveries sent, `action(event)`.
func sentActions(_ d: Traced<TouchOutcome>) -> [String] {
    d.outcome.deliveries.flatMap {
        $0.actions.filter(\.performed).map { "\($0.action)(\($0.event?.rawValue ?? "click"))" }
    }
}

/// A node of this world, as the engine writes it (tree.get, session.snapshot).
func written(_ s: SessionState, _ id: String) -> JSON { (try? JSONCodec.decode(s.world.encoded(id))) ?? .null }

let rvcActions = #""handles": {"tapped:": "handle", "primary:": "handle", "changed:": "handle", "save:": "handle"}"#

@Suite("UIKit's own classes (K1–K10)")
struct UIKitClassTests {
    @Test(
        "K1 a button on an image view: hit without a class (wrong), the touch lands behind with UIImageView, baseClass too"
    )
    func K1_imageViewTakesNoTouchesByDefault() throws {
        func world(_ iv: String) throws -> SessionState {
            try session(fixtureF([v("IV", 0, 0, 200, 200, iv, children: [v("B", 10, 10, 100, 44, kind: "control")])]))
        }
        // Before: a class-less view is interactive, so the button answers (what UIKit does not do).
        #expect(try world("").hit(20, 20)["view"] == "B")
        // After: UIImageView's userInteractionEnabled defaults to false; its subtree is skipped (K1).
        let image = try world(#""class": "UIImageView""#)
        let hit = try image.hit(20, 20)
        #expect(hit["view"] == "R")
        #expect(visit(hit, "IV")?["reason"] == "interaction-disabled" && visit(hit, "IV")?["rule"] == "K1")
        #expect(written(image, "IV")["userInteractionEnabled"] == false)
        #expect(try world(#""class": "AvatarView", "baseClass": "UIImageView""#).hit(20, 20)["view"] == "R")
        // The node's own setting wins over the class default (then H2, not K1, excludes).
        #expect(try world(#""class": "UIImageView", "userInteractionEnabled": true"#).hit(20, 20)["view"] == "B")
        let label = try world(#""class": "UILabel""#)
        #expect(try label.hit(150, 150)["view"] == "R")
        // Resetting with null goes back to the class default.
        var s = try world(#""class": "UIImageView", "userInteractionEnabled": true"#)
        _ = try s.ops(#"{"op": "update", "id": "IV", "set": {"userInteractionEnabled": null}}"#)
        #expect(try s.hit(20, 20)["view"] == "R")
    }

    @Test("K1 the class a node behaves as follows updates of class and baseClass, and their reset to null")
    func K1_behavesAsFollowsClassUpdates() throws {
        var s = try session(
            fixtureF([v("IV", 0, 0, 200, 200, "", children: [v("B", 10, 10, 100, 44, kind: "control")])]))
        #expect(try s.hit(20, 20)["view"] == "B")
        _ = try s.ops(#"{"op": "update", "id": "IV", "set": {"class": "UIImageView"}}"#)
        #expect(try s.hit(20, 20)["view"] == "R")
        _ = try s.ops(#"{"op": "update", "id": "IV", "set": {"class": "AvatarView"}}"#)
        #expect(try s.hit(20, 20)["view"] == "B", "a custom class without baseClass behaves as its kind")
        _ = try s.ops(#"{"op": "update", "id": "IV", "set": {"baseClass": "UILabel"}}"#)
        #expect(try s.hit(20, 20)["view"] == "R")
        _ = try s.ops(#"{"op": "update", "id": "IV", "set": {"baseClass": null}}"#)
        #expect(try s.hit(20, 20)["view"] == "B")
        _ = try s.ops(
            #"{"op": "update", "id": "IV", "set": {"class": "UIImageView"}}"#,
            #"{"op": "update", "id": "IV", "set": {"class": null}}"#)
        #expect(try s.hit(20, 20)["view"] == "B", "null restores the kind's class, UIView")
    }

    @Test("K2 primaryActionTriggered: never sent by a class-less control, sent with touchUpInside by a UIButton")
    func K2_buttonSendsPrimaryActionTriggered() throws {
        func world(_ cls: String) throws -> SessionState {
            let targets =
                #""targets": [{"event": "primaryActionTriggered", "action": "primary:"}, {"event": "touchUpInside", "action": "tapped:"}]"#
            return try session(fixtureF([v("B", 10, 10, 100, 44, kind: "control", cls + targets)], rvc: rvcActions))
        }
        var plain = try world("")
        #expect(sentActions(try plain.tap(20, 20)) == ["tapped:(touchUpInside)"])
        var button = try world(#""class": "UIButton", "#)
        let d = try button.tap(20, 20)
        #expect(controlEvents(d) == ["touchDown", "touchUpInside", "primaryActionTriggered"])
        #expect(sentActions(d) == ["primary:(primaryActionTriggered)", "tapped:(touchUpInside)"])  // registration order (A1)
        #expect(button.world.revision == plain.world.revision)  // a button changes no field
    }

    @Test(
        "K3 a UISwitch toggles `on` at touch-up inside, sends valueChanged then primaryActionTriggered; published as one batch"
    )
    func K3_switchTogglesOnTap() throws {
        let targets =
            #""targets": [{"event": "primaryActionTriggered", "action": "primary:"}, {"event": "valueChanged", "action": "changed:"}]"#
        var s = try session(
            fixtureF([v("SW", 10, 10, 51, 31, kind: "control", #""class": "UISwitch", "# + targets)], rvc: rvcActions))
        #expect(written(s, "SW")["on"] == false)
        let revision = s.world.revision
        let d = try s.tap(20, 20)
        #expect(changes(d) == ["SW.on=true"])
        #expect(controlEvents(d) == ["touchDown", "touchUpInside", "valueChanged", "primaryActionTriggered"])
        #expect(sentActions(d) == ["changed:(valueChanged)", "primary:(primaryActionTriggered)"])
        #expect(s.world.revision == revision + 1 && s.world["SW"]!.revision == revision + 1)
        let ops = s.takeChanges()
        var w = JSONWriter()
        ops.first?.write(to: &w)
        let op = try JSONCodec.decode(w.bytes)
        #expect(ops.count == 1 && op == json(#"{"op": "update", "id": "SW", "set": {"on": true}}"#))
        #expect(s.takeChanges().isEmpty)
        // A touch that ends outside (beyond the slop) does not toggle.
        let away = try s.touches([("t", "began", 20, 20, nil), ("t", "ended", 300, 500, nil)])
        #expect(changes(away).isEmpty && controlEvents(away).last == "touchUpOutside")
        #expect(changes(try s.tap(20, 20)) == ["SW.on=false"])
    }

    @Test(
        "K4 a UISlider tracks only from its thumb; valueChanged on each move while continuous, once at touch-up otherwise"
    )
    func K4_sliderThumbTracking() throws {
        let slider = #""class": "UISlider", "targets": [{"event": "valueChanged", "action": "changed:"}]"#
        var s = try session(fixtureF([v("SL", 0, 100, 400, 40, kind: "control", slider)], rvc: rvcActions))
        // value 0: the thumb is at the left end; a touch at x 300 is far from it (beyond the slop): no tracking.
        let off = try s.touches([
            ("a", "began", 300, 120, nil), ("a", "moved", 350, 120, nil), ("a", "ended", 350, 120, nil)
        ])
        #expect(changes(off).isEmpty && sentActions(off).isEmpty)
        let on = try s.touches([
            ("b", "began", 10, 120, nil), ("b", "moved", 110, 120, nil), ("b", "moved", 210, 120, nil),
            ("b", "ended", 210, 120, nil)
        ])
        #expect(changes(on) == ["SL.value=0.25", "SL.value=0.5"])
        #expect(sentActions(on) == ["changed:(valueChanged)", "changed:(valueChanged)"])
        var discrete = try session(
            fixtureF(
                [v("SL", 0, 100, 400, 40, kind: "control", slider + #", "continuous": false, "maximumValue": 4"#)],
                rvc: rvcActions))
        let d = try discrete.touches([
            ("b", "began", 10, 120, nil), ("b", "moved", 110, 120, nil), ("b", "moved", 210, 120, nil),
            ("b", "ended", 210, 120, nil)
        ])
        #expect(changes(d) == ["SL.value=1", "SL.value=2"])
        #expect(sentActions(d) == ["changed:(valueChanged)"] && d.outcome.deliveries.last?.actions.count == 1)
    }

    @Test("K5 a UISegmentedControl selects the tapped segment; a UIStepper steps within its bounds")
    func K5_segmentedControlAndStepper() throws {
        let changed = #""targets": [{"event": "valueChanged", "action": "changed:"}]"#
        var s = try session(
            fixtureF(
                [
                    v(
                        "SEG", 0, 0, 300, 30, kind: "control",
                        #""class": "UISegmentedControl", "numberOfSegments": 3, "selectedSegmentIndex": 0, "# + changed),
                    v("ST", 0, 100, 100, 30, kind: "control", #""class": "UIStepper", "maximumValue": 1, "# + changed)
                ], rvc: rvcActions))
        let seg = try s.tap(250, 10)
        #expect(changes(seg) == ["SEG.selectedSegmentIndex=2"] && sentActions(seg) == ["changed:(valueChanged)"])
        let same = try s.tap(260, 10)
        #expect(changes(same).isEmpty && sentActions(same).isEmpty)
        #expect(changes(try s.tap(80, 110)) == ["ST.value=1"])  // the + half
        let atMax = try s.tap(80, 110)
        #expect(changes(atMax).isEmpty && sentActions(atMax).isEmpty)
        #expect(changes(try s.tap(20, 110)) == ["ST.value=0"])  // the − half
    }

    @Test("K5 a held UIStepper steps on the session clock at 0.5 s intervals, then faster; touch-up adds no step")
    func K5_heldStepperAutorepeat() throws {
        let changed = #""targets": [{"event": "valueChanged", "action": "changed:"}]"#
        var s = try session(
            fixtureF([v("ST", 0, 100, 100, 30, kind: "control", #""class": "UIStepper", "# + changed)], rvc: rvcActions)
        )
        let down = try s.touches([("h", "began", 80, 110, nil)])
        #expect(changes(down).isEmpty)
        let held = try s.advance(to: 2.75)
        #expect(held.outcome.controlEvents?.map(\.time) == [0.5, 1.0, 1.5, 2.0, 2.5, 2.6, 2.7])
        #expect(changes(held).last == "ST.value=7")
        let up = try s.touches([("h", "ended", 80, 110, nil)])
        #expect(changes(up).isEmpty && sentActions(up).isEmpty)
        // autorepeat false: one step, at touch-up.
        var once = try session(
            fixtureF(
                [v("ST", 0, 100, 100, 30, kind: "control", #""class": "UIStepper", "autorepeat": false, "# + changed)],
                rvc: rvcActions))
        _ = try once.touches([("h", "began", 80, 110, nil)])
        #expect(try once.advance(to: 3).outcome.controlEvents == nil)
        #expect(changes(try once.touches([("h", "ended", 80, 110, nil)])) == ["ST.value=1"])
    }

    @Test(
        "K6 paste: unavailable for a custom class (wrong for a text field), available for a UITextField; the commands edit"
    )
    func K6_editingCommands() throws {
        func world(
            _ cls: String, text: String = "hello world", range: String = "[0, 5]",
            app: String = #""pasteboard": "big ""#
        ) throws -> SessionState {
            var s = try session(
                fixtureF(
                    [
                        v(
                            "TF", 0, 0, 300, 40, kind: "textField",
                            cls + #""text": "\#(text)", "selectedRange": \#(range)"#)
                    ], app: app))
            _ = try s.become(["session": "s", "id": "TF"])
            return s
        }
        func available(_ s: SessionState, _ action: String) throws -> Bool {
            try s.canPerformAction(["session": "s", "action": .string(action)])["available"] == true
        }
        // Before: a class the engine does not know implements nothing (and the fields are not allowed on it).
        var custom = try session(
            fixtureF([v("TF", 0, 0, 300, 40, kind: "textField", #""class": "MyField""#)], app: #""pasteboard": "x""#))
        _ = try custom.become(["session": "s", "id": "TF"])
        #expect(try !available(custom, "paste:"))
        // After: a text field (its kind's class, or baseClass) implements them with UIKit's conditions.
        var s = try world(#""class": "MyField", "baseClass": "UITextField", "#)
        #expect(
            try available(s, "paste:") && available(s, "copy:") && available(s, "cut:") && available(s, "delete:")
                && available(s, "selectAll:"))
        #expect(try !available(s, "select:"))  // the selection is not empty
        #expect(try !available(world("", app: ""), "paste:"))  // an empty pasteboard
        #expect(try !available(world("", range: "[3, 0]"), "copy:"))
        #expect(
            try !available(world(#""editable": false, "#), "paste:")
                && available(world(#""editable": false, "#), "copy:"))
        #expect(try !available(world(#""secureTextEntry": true, "#), "copy:"))
        #expect(try !available(world("", range: "[0, 11]"), "selectAll:"))
        #expect(try !available(world("", text: "", range: "[0, 0]"), "select:"))
        // Performing them: cut, paste, select, selectAll, copy, delete.
        let cut = try s.sendAction(["session": "s", "action": "cut:"])
        #expect(changes(cut) == ["app.pasteboard=\"hello\"", "TF.text=\" world\"", "TF.selectedRange=[0,0]"])
        #expect(
            changes(try s.sendAction(["session": "s", "action": "paste:"])) == [
                "TF.text=\"hello world\"", "TF.selectedRange=[5,0]"
            ])
        #expect(changes(try s.sendAction(["session": "s", "action": "select:"])) == ["TF.selectedRange=[0,5]"])
        #expect(changes(try s.sendAction(["session": "s", "action": "selectAll:"])) == ["TF.selectedRange=[0,11]"])
        _ = try s.sendAction(["session": "s", "action": "copy:"])
        #expect(written(s, "app")["pasteboard"] == "hello world")
        #expect(
            changes(try s.sendAction(["session": "s", "action": "delete:"])) == [
                "TF.text=\"\"", "TF.selectedRange=[0,0]"
            ])
        // A node's own `handles` override the built-in method.
        var own = try world(#""handles": {"paste:": "handle"}, "#)
        #expect(changes(try own.sendAction(["session": "s", "action": "paste:"])).isEmpty)
    }

    @Test(
        "K7 resignFirstResponder with a nil target resigns the first responder; becomeFirstResponder is an action too")
    func K7_builtInResponderActions() throws {
        var s = try session(fixtureF([v("TF", 0, 0, 300, 40, kind: "textField")], rvc: rvcActions))
        // Without a first responder the walk starts at the application, which implements it and resigns nothing.
        let none = try s.sendAction(["session": "s", "action": "resignFirstResponder"])
        #expect(none.result["by"] == "app" && none.focus.isEmpty)
        _ = try s.become(["session": "s", "id": "TF"])
        let dismiss = try s.sendAction(["session": "s", "action": "resignFirstResponder"])
        #expect(dismiss.result["performed"] == true && dismiss.result["by"] == "TF")
        #expect(dismiss.focus == [json(#"{"window": "W", "from": "TF", "to": null, "reason": "resign"}"#)])
        #expect(s.keyFR == .null)
        let become = try s.sendAction(["session": "s", "action": "becomeFirstResponder", "target": "TF"])
        #expect(become.result["by"] == "TF" && s.keyFR == "TF")
        #expect(try s.canPerformAction(["session": "s", "action": "resignFirstResponder"])["by"] == "TF")
        // Before: an action nobody implements falls off the chain; the built-in one is performed by the first
        // responder.
        _ = try s.become(["session": "s", "id": "TF"])
        let unknown = try s.sendAction(["session": "s", "action": "endEditingNow:"])
        #expect(unknown.result["performed"] == false && s.keyFR == "TF")
        #expect(
            try s.sendAction(["session": "s", "action": "resignFirstResponder"]).result["by"] == "TF"
                && s.keyFR == .null)
        // A veto (canPerformAction refusing) passes it on, as for any action (A4).
        var vetoed = try session(
            fixtureF([v("TF", 0, 0, 300, 40, kind: "textField", #""vetoes": ["resignFirstResponder"]"#)]))
        _ = try vetoed.become(["session": "s", "id": "TF"])
        #expect(
            try vetoed.sendAction(["session": "s", "action": "resignFirstResponder"]).result["by"] == "R"
                && vetoed.keyFR == "TF")
    }

    static let content = v("C", 0, 0, 400, 2000, handlesAll)

    func scroll(
        _ extra: String = "", cls: String = #""class": "UIScrollView", "contentSize": [400, 1000], "#,
        children: [String] = [content]
    ) throws -> SessionState {
        try session(fixtureF([v("S", 0, 0, 400, 400, cls + extra + #""clipsToBounds": true"#, children: children)]))
    }

    @Test("K8 a scroll view's pan S.pan scrolls boundsOrigin by its translation, clamped; a plain view does not scroll")
    func K8_scrollViewPanScrolls() throws {
        var plain = try scroll(cls: "")
        let before = try plain.touches([("t", "began", 200, 300, 0), ("t", "moved", 200, 250, 0.05)])
        #expect(viewMessages(before, "C") == ["touchesBegan", "touchesMoved"] && changes(before).isEmpty)
        var s = try scroll()
        let d = try s.touches([
            ("t", "began", 200, 300, 0), ("t", "moved", 200, 250, 0.05), ("t", "moved", 200, -900, 0.1)
        ])
        #expect(transitions(d) == ["S.pan:possible→began", "S.pan:began→changed"])
        #expect(changes(d) == ["S.boundsOrigin=[0,50]", "S.boundsOrigin=[0,600]"])  // 1000 − 400 at most
        #expect(viewMessages(d, "C").isEmpty)  // the pan began before scrollDelay: the content never saw it
        let back = try s.touches([("t", "moved", 200, 2000, 0.2), ("t", "ended", 200, 2000, 0.2)])
        #expect(changes(back) == ["S.boundsOrigin=[0,0]"])
        #expect(s.recognizers.map(\.recognizer) == ["S.pan"])
    }

    @Test("K8 delaysContentTouches: began waits scrollDelay of the session clock, or the touch's end; off: at once")
    func K8_delaysContentTouches() throws {
        var s = try scroll()
        let tap = try s.touches([("a", "began", 100, 100, 0), ("a", "ended", 100, 100, 0.05)])
        #expect(viewMessages(tap, "C") == ["touchesBegan", "touchesEnded"])
        #expect(tap.outcome.deliveries[0].reason == .held && tap.outcome.deliveries[0].heldBy == ["S.pan"])
        let hold = try s.touches([("b", "began", 100, 100, 1)])
        #expect(viewMessages(hold, "C").isEmpty)
        let later = try s.advance(to: 1.15)
        #expect(viewMessages(later, "C") == ["touchesBegan"])
        #expect(
            later.trace.steps.contains { if case .release(_, _, nil, .k8) = $0 { return true } else { return false } })
        var immediate = try scroll(#""delaysContentTouches": false, "#)
        #expect(viewMessages(try immediate.touches([("c", "began", 100, 100, 0)]), "C") == ["touchesBegan"])
    }

    @Test("K8 UITableView, UICollectionView and UITextView are scroll views: each has its built-in pan, and scrolls")
    func K8_scrollViewSubclasses() throws {
        for (cls, kind) in [("UITableView", "view"), ("UICollectionView", "view"), ("UITextView", "textView")] {
            var s = try session(
                fixtureF([v("S", 0, 0, 400, 400, kind: kind, #""class": "\#(cls)", "contentSize": [400, 1000]"#)]))
            #expect(s.recognizers.map(\.recognizer) == ["S.pan"], "\(cls)")
            let d = try s.touches([("t", "began", 200, 300, 0), ("t", "moved", 200, 250, 0.05)])
            #expect(changes(d) == ["S.boundsOrigin=[0,50]"], "\(cls)")
        }
        // A scroll view with scrollEnabled false keeps its pan, disabled: nothing scrolls.
        var off = try scroll(#""scrollEnabled": false, "#)
        #expect(changes(try off.touches([("t", "began", 200, 300, 0), ("t", "moved", 200, 250, 0.05)])).isEmpty)
    }

    @Test(
        "K8 K19 a scroll view whose content fits its bounds has nothing to scroll: its pan fails at the touch's end, the content gets the drag"
    )
    func K8_K19_contentThatFitsDoesNotScroll() throws {
        var fits = try scroll(cls: #""class": "UIScrollView", "contentSize": [400, 400], "#)
        let d = try fits.touches([
            ("t", "began", 200, 300, 0), ("t", "moved", 200, 250, 0.05), ("t", "ended", 200, 250, 0.05)
        ])
        #expect(
            gestureSteps(d).first.map {
                "\($0.recognizer) \($0.to.rawValue) \($0.rule.rawValue) \($0.reason!.rawValue)"
            } == "S.pan failed K19 cannot-scroll")
        #expect(changes(d).isEmpty && viewMessages(d, "C") == ["touchesBegan", "touchesMoved", "touchesEnded"])
        var wide = try scroll(cls: #""class": "UIScrollView", "contentSize": [800, 400], "#)
        let across = try wide.touches([("t", "began", 300, 300, 0), ("t", "moved", 250, 300, 0.05)])
        #expect(changes(across) == ["S.boundsOrigin=[50,0]"])  // one axis that scrolls is enough
    }

    @Test(
        "K8 G10 a button in a scroll view keeps its quick tap from a tap recognizer further up, though its touchesBegan came late"
    )
    func K8_G10_buttonInScrollViewKeepsItsTap() throws {
        let button = v("B", 0, 200, 400, 200, kind: "control", #""class": "UIButton""#)
        let scrollView = v(
            "S", 0, 0, 400, 400, #""class": "UIScrollView", "contentSize": [400, 1000], "clipsToBounds": true"#,
            children: [button])
        var s = try session(fixtureF([scrollView], rExtra: recognizers(rec("tap1", "tap")), rvc: rvcHandles))
        let tap = try s.touches([("a", "began", 100, 300, 0), ("a", "ended", 100, 300, 0.05)])
        #expect(tap.outcome.deliveries[0].heldBy == ["S.pan"])
        #expect(
            gestureSteps(tap).contains {
                $0.recognizer == "tap1" && $0.to == .failed && $0.rule == .g10 && $0.by == "B"
            })
        #expect(!gestureSteps(tap).contains { $0.recognizer == "tap1" && $0.to == .recognized })
        #expect(Set(controlEvents(tap)) == ["touchDown", "touchUpInside", "primaryActionTriggered"])
        // Without the scroll view's delay the same holds (G10 as before): the delay changes nothing for the button.
        var plain = try session(
            fixtureF(
                [v("S", 0, 0, 400, 400, children: [button])], rExtra: recognizers(rec("tap1", "tap")), rvc: rvcHandles))
        let direct = try plain.touches([("a", "began", 100, 300, 0), ("a", "ended", 100, 300, 0.05)])
        #expect(
            gestureSteps(direct).first.map { "\($0.recognizer) \($0.to.rawValue) \($0.rule.rawValue)" }
                == "tap1 failed G10")
    }

    @Test(
        "K8 canCancelContentTouches: the pan cancels content that tracks the touch, fails when it may not, and a control keeps its touch"
    )
    func K8_canCancelContentTouches() throws {
        var s = try scroll()
        _ = try s.touches([("a", "began", 100, 300, 0)])
        _ = try s.advance(to: 0.2)
        let d = try s.touches([("a", "moved", 100, 200, 0.3)])
        #expect(transitions(d) == ["S.pan:possible→began"] && viewMessages(d, "C") == ["touchesCancelled"])
        var keep = try scroll(#""canCancelContentTouches": false, "#)
        _ = try keep.touches([("a", "began", 100, 300, 0)])
        _ = try keep.advance(to: 0.2)
        let kept = try keep.touches([("a", "moved", 100, 200, 0.3)])
        #expect(gestureSteps(kept).first?.reason == .contentTracking && gestureSteps(kept).first?.rule == .k8)
        #expect(viewMessages(kept, "C") == ["touchesMoved"] && changes(kept).isEmpty)
        var button = try scroll(children: [v("B", 0, 200, 400, 200, kind: "control", #""class": "UIButton""#)])
        _ = try button.touches([("a", "began", 100, 300, 0)])
        _ = try button.advance(to: 0.2)
        let pressed = try button.touches([("a", "moved", 100, 200, 0.3)])
        #expect(gestureSteps(pressed).first.map { "\($0.reason!.rawValue) by \($0.by!)" } == "control-keeps-touch by B")
        #expect(controlEvents(pressed) == ["touchDragInside"] && changes(pressed).isEmpty)
    }

    @Test("K8 the built-in pan's id is taken: a recognizer named S.pan is DUPLICATE_ID")
    func K8_builtInPanIDIsReserved() throws {
        var s = try scroll()
        expectError(.duplicateID) {
            _ = try s.ops(
                #"{"op": "update", "id": "C", "set": {"gestureRecognizers": [{"id": "S.pan", "kind": "tap"}]}}"#)
        }
    }

    static func presented(_ style: String, presentedFirst: Bool = true) -> String {
        let tf = v("TF", 0, 0, 300, 40, kind: "textField", #""handles": {"save:": "handle"}"#)
        let pvc =
            #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC"\#(style.isEmpty ? "" : #", "modalPresentationStyle": "\#(style)""#), "handles": {"save:": "handle"}, "children": [\#(v("P", 0, 100, 400, 700, children: [v("PB", 0, 0, 100, 44, kind: "control", #""class": "UIButton", "targets": [{"event": "touchUpInside", "action": "save:"}]"#)]))]}"#
        let rvc = #"{"id": "RVC", "kind": "viewController", "children": [\#(v("R", 0, 0, 400, 800, children: [tf]))]}"#
        let children = presentedFirst ? [pvc, rvc] : [rvc, pvc]
        return
            #"{"id": "app", "kind": "application", "children": [{"id": "W", "kind": "window", "key": true, "frame": [0, 0, 400, 800], "children": [\#(children.joined(separator: ", "))]}]}"#
    }

    @Test("K9 a presented controller's view is hit-tested in front of its presenter's, whatever the tree order")
    func K9_presentedViewInFront() throws {
        // Before 1.6 the tree order alone decided: RVC's view (later in W's children) answered.
        let s = try session(Self.presented(""))
        let hit = try s.hit(50, 500)
        #expect(hit["view"] == "P")
        #expect(visitedIDs(hit).prefix(2) == ["W", "P"])
        #expect(try session(Self.presented("", presentedFirst: false)).hit(50, 500)["view"] == "P")
        // Before: the same view in the same place of the tree, not a presented controller's, is behind R.
        let plain = Self.presented("", presentedFirst: true).replacingOccurrences(
            of:
                #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC", "handles": {"save:": "handle"}, "children": ["#,
            with: ""
        )
        .replacingOccurrences(of: #"]}]}, {"id": "RVC""#, with: #"]}, {"id": "RVC""#)
        let sibling = try session(plain)
        #expect(sibling.world["P"] != nil && sibling.world["PVC"] == nil)
        #expect(try sibling.hit(50, 500)["view"] == "R")
    }

    @Test(
        "K9 fullScreen takes the presenter's views out of the window: F6 resigns its text field, hit-testing skips them; pageSheet keeps them"
    )
    func K9_fullScreenTakesPresenterOut() throws {
        func world(_ style: String) throws -> (SessionState, TreeChange) {
            var s = try session(Self.presented("", presentedFirst: false))
            _ = try s.ops(#"{"op": "remove", "id": "PVC"}"#)
            _ = try s.become(["session": "s", "id": "TF"])
            let pvc =
                #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC", "modalPresentationStyle": "\#(style)", "handles": {"save:": "handle"}, "children": [\#(v("P", 0, 100, 400, 700, children: [v("PB", 0, 0, 100, 44, kind: "control", #""class": "UIButton", "targets": [{"event": "touchUpInside", "action": "save:"}]"#)]))]}"#
            let change = try s.ops(#"{"op": "insert", "parent": "W", "node": \#(pvc)}"#)
            return (s, change)
        }
        // pageSheet (and automatic): the presenter's text field keeps first responder and takes the button's save:.
        var (sheet, sheetChange) = try world("automatic")
        #expect(sheetChange.consequences == nil && sheet.keyFR == "TF")
        #expect(sentActions(try sheet.tap(20, 110)) == ["save:(touchUpInside)"])
        #expect(try sheet.tap(20, 110).outcome.deliveries.last?.actions.first?.by == "TF")
        // fullScreen: F6 resigns it (with a trace), the button's save: reaches the presented controller.
        var (full, fullChange) = try world("fullScreen")
        #expect(fullChange.consequences?.outcome.resigned.map(\.from) == ["TF"])
        #expect(fullChange.consequences?.trace.focusChanges.first?.reason == .leftWindow)
        #expect(full.keyFR == .null)
        #expect(try full.tap(20, 110).outcome.deliveries.last?.actions.first?.by == "PVC")
        let hit = try full.hit(50, 50)  // above P: R is out of the window
        #expect(
            hit["view"] == "W" && visit(hit, "R")?["reason"] == "presented-over" && visit(hit, "R")?["rule"] == "K9")
        #expect(try full.become(["session": "s", "id": "TF"]).result["reason"] == "not-in-window")
        // Every other style keeps the presenter's views and its first responder, as pageSheet does.
        // The sheets keep them behind their dimming view (K17), the "over" styles hittable where not covered.
        for style in ["pageSheet", "formSheet", "overFullScreen", "overCurrentContext"] {
            let (kept, change) = try world(style)
            #expect(change.consequences == nil && kept.keyFR == "TF", "\(style)")
            let sheet = style.hasSuffix("Sheet")
            #expect(try kept.hit(50, 10)["view"] == (sheet ? "PVC.dimming" : "TF"), "\(style)")
        }
        // The presentation ends: the presenter's views are back.
        _ = try full.ops(#"{"op": "remove", "id": "PVC"}"#)
        #expect(try full.hit(50, 10)["view"] == "TF")
    }

    @Test("K10 a view animating without allowUserInteraction is not hit; with it, it is")
    func K10_animatingViews() throws {
        func world(_ extra: String) throws -> SessionState { try session(fixtureF([v("V", 0, 0, 100, 100, extra)])) }
        #expect(try world("").hit(10, 10)["view"] == "V")
        let hit = try world(#""animating": {"allowUserInteraction": false}"#).hit(10, 10)
        #expect(hit["view"] == "R" && visit(hit, "V")?["reason"] == "animating" && visit(hit, "V")?["rule"] == "K10")
        #expect(try world(#""animating": {"allowUserInteraction": true}"#).hit(10, 10)["view"] == "V")
        #expect(try world(#""animating": {}"#).hit(10, 10)["view"] == "R")  // UIKit's default options
    }

    @Test("K1 validation: classes and their fields, named by their full path; a class-less world writes nothing new")
    func K1_validation() throws {
        func error(_ node: String) -> RPCError? {
            do { _ = try session(fixtureF([node])) } catch let e as RPCError { return e } catch {}
            return nil
        }
        let cases: [(String, String)] = [
            (v("X", 0, 0, 1, 1, #""class": "UIButton""#), "class"),
            (v("X", 0, 0, 1, 1, #""class": "Avatar", "baseClass": "UIWidget""#), "baseClass"),
            (v("X", 0, 0, 1, 1, kind: "control", #""class": "Mine", "baseClass": "UIImageView""#), "baseClass"),
            (v("X", 0, 0, 1, 1, kind: "control", #""class": "UIButton", "on": true"#), "on"),
            (v("X", 0, 0, 1, 1, kind: "control", #""class": "UISlider", "value": 2"#), "value"),
            (v("X", 0, 0, 1, 1, kind: "control", #""class": "UIStepper", "stepValue": 0"#), "stepValue"),
            (
                v("X", 0, 0, 1, 1, kind: "control", #""class": "UISegmentedControl", "selectedSegmentIndex": 0"#),
                "selectedSegmentIndex"
            ),
            (v("X", 0, 0, 1, 1, kind: "textField", #""text": "ab", "selectedRange": [1, 2]"#), "selectedRange"),
            (v("X", 0, 0, 1, 1, #""class": "UIScrollView", "contentSize": [-1, 0]"#), "contentSize"),
            (v("X", 0, 0, 1, 1, #""animating": {"allow": true}"#), "animating.allow")
        ]
        for (node, field) in cases {
            let e = error(node)
            #expect(
                e?.name == .invalidNode
                    && e?.detail("field") == .string("tree.children[1].children[0].children[0].children[0].\(field)"),
                "\(node): \(String(describing: e))")
        }
        var s = try session(fixtureF([v("SW", 0, 0, 50, 30, kind: "control", #""class": "UISwitch", "on": true"#)]))
        func field(_ op: String) -> JSON? {
            do { _ = try s.ops(op) } catch let e as RPCError {
                return e.name == .invalidNode ? e.detail("field") : nil
            } catch {}
            return nil
        }
        #expect(field(#"{"op": "update", "id": "SW", "set": {"class": "UIButton"}}"#) == "ops[0].set.on")  // a button has no `on`
        #expect(field(#"{"op": "update", "id": "SW", "set": {"on": 1}}"#) == "ops[0].set.on")
        #expect(field(#"{"op": "update", "id": "app", "set": {"pasteboard": 3}}"#) == "ops[0].set.pasteboard")
        #expect(
            field(#"{"op": "update", "id": "RVC", "set": {"modalPresentationStyle": "sideways"}}"#)
                == "ops[0].set.modalPresentationStyle")
        // Without a class nothing new is written; a switch writes its effective `on`.
        let plain = written(try session(fixtureF([v("V", 0, 0, 1, 1), v("T", 0, 0, 1, 1, kind: "textField")])), "R")
        for key in ["on", "text", "selectedRange", "contentSize", "baseClass", "animating"] {
            #expect(plain["children"]?[0]?[key] == nil && plain["children"]?[1]?[key] == nil)
        }
        #expect(written(s, "SW")["on"] == true && written(s, "app")["pasteboard"] == nil)
        #expect(
            written(try session(fixtureF([v("SW", 0, 0, 50, 30, kind: "control", #""class": "UISwitch""#)])), "SW")[
                "on"] == false)
    }
}
