import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// The `android` dispatch model in memory (docs/rules-android.md): the same fixtures as UIKit's tests, run
/// under `Profile(model: .android)`. Each test names the rules it exercises.
@Suite("Android's View system (AR, AD, AI, AV, AC, AS, AL, AK)")
struct AndroidModelTests {
    static let android: Profile = {
        var p = Profile()
        p.model = .android
        return p
    }()

    func androidSession(_ tree: String) throws -> SessionState {
        try session(tree, profile: Self.android)
    }

    func button(
        _ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ action: String, _ extra: String = ""
    )
        -> String
    {
        let more = extra.isEmpty ? "" : ", \(extra)"
        return v(
            id, x, y, w, h, kind: "control",
            #""class": "UIButton", "targets": [{"event": "touchUpInside", "action": "\#(action)", "target": "RVC"}]\#(more)"#
        )
    }

    func actions(_ d: Traced<TouchOutcome>) -> [String] {
        d.outcome.deliveries.flatMap { $0.actions.map(\.action) }
    }

    func touches(_ entries: [(String, String, Double?, Double?, Double?)]) -> JSON {
        let list: [JSON] = entries.map { t, phase, x, y, time in
            var m: [(key: String, value: JSON)] = [("touch", .string(t)), ("phase", .string(phase))]
            if let x, let y { m.append(("point", point(x, y))) }
            if let time { m.append(("time", .number(time))) }
            return .object(m)
        }
        return ["touches": .array(list)]
    }

    @Test("AD6 AD7 AD8 a refused DOWN goes to the sibling behind, then the parent, then the Activity (AR4 AR7)")
    func depthFirstWithBacktracking() throws {
        var s = try androidSession(fixtureF(treeT1))
        let d = try s.tap(250, 250)
        let offers = steps(d, "offer").map { $0["to"]?.stringValue ?? "" }
        #expect(offers == ["E", "C", "A", "R", "W", "W"])  // the UP goes to the DecorView only (AD10)
        #expect(d.outcome.deliveries.map(\.reason) == [.unhandled, .unhandled])
        #expect(
            steps(d, "activity").map { $0["method"]?.stringValue } == [
                "dispatchTouchEvent", "onTouchEvent", "dispatchTouchEvent", "onTouchEvent"
            ])
        var q2 = try androidSession(fixtureF([button("Back", 0, 0, 200, 200, "back"), v("Front", 0, 0, 200, 200)]))
        let tap = try q2.tap(50, 50)
        #expect(tap.outcome.deliveries.first?.visited == ["Front", "Back"])
        #expect(actions(tap) == ["back"])
    }

    @Test("AD5 alpha, enabled and userInteractionEnabled play no part in finding the target")
    func candidatesIgnoreAlphaAndEnabled() throws {
        var s = try androidSession(
            fixtureF([
                button("Btn", 0, 0, 200, 100, "save"),
                v(
                    "Parent", 0, 0, 400, 400, #""userInteractionEnabled": false"#,
                    children: [
                        button("Veil", 0, 0, 400, 400, "dismiss", #""alpha": 0"#)
                    ])
            ]))
        let d = try s.tap(50, 50)
        #expect(actions(d) == ["dismiss"])
        // Noted once per event that asks Parent: the DOWN's search and the UP's interception.
        #expect(
            steps(d, "mapping").map { $0["field"]?.stringValue } == ["userInteractionEnabled", "userInteractionEnabled"]
        )
        #expect(try s.hit(50, 50)["view"] == "Btn", "UIKit's hit test on the same session skips both")
    }

    @Test("AC2 a disabled clickable view swallows the gesture; a disabled non-clickable one lets it through")
    func disabledViews() throws {
        var s = try androidSession(
            fixtureF([
                button("Under", 0, 0, 400, 400, "under"), button("Btn", 50, 50, 100, 50, "save", #""enabled": false"#)
            ]))
        let d = try s.tap(60, 60)
        #expect(actions(d) == [])
        #expect(d.outcome.deliveries.map(\.handledBy) == [["Btn"], ["Btn"]])
        var t = try androidSession(
            fixtureF([
                button("Under", 0, 0, 400, 400, "under"),
                v("Label", 50, 50, 100, 50, #""class": "UILabel", "android": {"enabled": false}"#)
            ]))
        #expect(actions(try t.tap(60, 60)) == ["under"])
    }

    @Test("AI7 AS1 on the same MOVE the scroll view's intercept runs before the child could claim the gesture")
    func ancestorsInterceptFirst() throws {
        let seek = v(
            "Seek", 20, 100, 360, 40, kind: "control", #""class": "UISlider""#)
        let content = v("Content", 0, 0, 400, 2000, children: [seek])
        let sv = v("SV", 0, 0, 400, 800, #""class": "UIScrollView", "contentSize": [400, 2000]"#, children: [content])
        var s = try androidSession(fixtureF([sv]))
        let d = try s.touch(touches([("t", "began", 200, 120, 0), ("t", "moved", 215, 140, 0.05)]), client: "c")
        #expect(steps(d, "cancel").map { $0["to"]?.stringValue } == ["Content", "Seek"])
        #expect(steps(d, "disallow").map { $0["from"]?.stringValue } == ["SV"], "the SeekBar never claimed it")
        // AS7: horizontal first, the SeekBar claims the gesture and the scroll view is no longer asked.
        var h = try androidSession(fixtureF([sv]))
        let claim = try h.touch(
            touches([("u", "began", 200, 120, 0), ("u", "moved", 212, 121, 0.2), ("u", "moved", 260, 150, 0.3)]),
            client: "c")
        #expect(steps(claim, "disallow").first?["rule"] == "AS7")
        #expect(steps(claim, "intercept").last?["reason"] == "disallowed")
        #expect(steps(claim, "cancel").isEmpty)
    }

    @Test("AC5 AC7 AC9 deadlines fire on the session clock, before an input at their own time (AC13)")
    func deadlinesBeforeInputs() throws {
        let tree = fixtureF([
            button(
                "Btn", 0, 0, 200, 200, "save",
                #""android": {"listeners": {"click": {"target": "RVC", "method": "save"}, "longClick": {"target": "RVC", "method": "menu", "returns": true}}}"#
            )
        ])
        var s = try androidSession(tree)
        // Held exactly the long-press timeout: the long click comes first and takes the click away.
        let d = try s.touch(touches([("t", "began", 50, 50, 0), ("t", "ended", nil, nil, 0.4)]), client: "c")
        #expect(actions(d) == ["menu"])
        #expect(steps(d, "longClick").first?["performed"] == true)
        var early = try androidSession(tree)
        #expect(
            actions(try early.touch(touches([("t", "began", 50, 50, 0), ("t", "ended", nil, nil, 0.39)]), client: "c"))
                == ["save"])
    }

    @Test("AL1 AD10 a removed target gets CANCEL; its parent handles the rest without the DOWN")
    func removalMidGesture() throws {
        var s = try androidSession(
            fixtureF([
                v(
                    "P", 0, 0, 400, 400, #""android": {"handles": {"onTouchEvent": "consume"}}"#,
                    children: [button("Btn", 100, 100, 200, 100, "save")])
            ]))
        _ = try s.phase("t", "began", 150, 150)
        let change = try s.ops(#"{"op": "remove", "id": "Btn"}"#)
        let cancel = try #require(change.consequences)
        #expect(cancel.outcome.touches.map(\.view) == ["Btn"])
        #expect(steps(cancel, "cancel").first?["rule"] == "AL1")
        let up = try s.phase("t", "ended", 150, 150)
        #expect(up["view"] == "P" && strings(up["handledBy"]) == ["P"])
    }

    @Test(
        "AD2 AM2 a request that fails part-way changes nothing; a second finger joins the first's view; a key repeat is refused"
    )
    func atomicAndRefusals() throws {
        var s = try androidSession(fixtureF([button("Btn", 0, 0, 200, 200, "save")]))
        expectError(.touchNotFound) {
            _ = try s.touch(touches([("t", "began", 50, 50, nil), ("zz", "ended", nil, nil, nil)]), client: "c")
        }
        _ = try s.phase("t", "began", 50, 50)
        // AM2: a second finger on the view holding the first joins it as a POINTER_DOWN.
        #expect(try s.phase("u", "began", 60, 60)["message"] == "ACTION_POINTER_DOWN")
        #expect(try s.phase("u", "ended", 60, 60)["message"] == "ACTION_POINTER_UP")
        expectError(.touchInUse) { _ = try s.phase("t", "moved", 60, 60, client: "other") }
        _ = try s.press(["press": 1, "phase": "began", "key": "a"], client: "c")
        expectError(.invalidParams) { _ = try s.press(["press": 1, "phase": "changed"], client: "c") }
        let up = try s.touch(touches([("t", "ended", nil, nil, nil)]), client: "c")
        #expect(actions(up) == ["save"])
    }

    @Test("AC2 AM3 AC14 AL2 allowClickWhenDisabled, splitMotionEvents, tooltip and temporarilyDetached")
    func newViewMembers() throws {
        // AC2: a disabled button allowed to click clicks.
        var allowed = try androidSession(
            fixtureF([
                button("Under", 0, 0, 400, 400, "under"),
                button(
                    "Btn", 50, 50, 100, 50, "save", #""enabled": false, "android": {"allowClickWhenDisabled": true}"#)
            ]))
        #expect(actions(try allowed.tap(60, 60)) == ["save"])
        // AM3: R does not split: the second finger goes to Left as a POINTER_DOWN; only left fires.
        var unsplit = try androidSession(
            fixtureF(
                [button("Left", 0, 0, 200, 800, "left"), button("Right", 200, 0, 200, 800, "right")],
                rExtra: #""android": {"splitMotionEvents": false}"#))
        let two = try unsplit.touch(
            touches([
                ("1", "began", 100, 100, 0), ("2", "began", 300, 100, 0.05), ("2", "ended", nil, nil, 0.1),
                ("1", "ended", nil, nil, 0.15)
            ]), client: "c")
        #expect(two.outcome.deliveries.map(\.view) == ["Left", "Left", "Left", "Left"])
        #expect(actions(two) == ["left"])
        // AC14: a view with a tooltip consumes; its long press shows the tooltip.
        var tip = try androidSession(fixtureF([v("Tip", 0, 0, 200, 200, #""android": {"tooltip": true}"#)]))
        let held = try tip.touch(touches([("t", "began", 50, 50, 0), ("t", "ended", nil, nil, 0.5)]), client: "c")
        #expect(held.outcome.deliveries.map(\.handledBy) == [["Tip"], ["Tip"]])
        #expect(steps(held, "longClick").map { $0["listener"]?.stringValue } == ["tooltip"])
        // AL2: a target made temporarily detached gets its next event as CANCEL.
        var list = try androidSession(
            fixtureF([
                v(
                    "List", 0, 0, 400, 400, #""android": {"handles": {"onTouchEvent": "consume"}}"#,
                    children: [button("Row", 0, 100, 400, 100, "open")])
            ]))
        _ = try list.phase("t", "began", 100, 150)
        _ = try list.ops(#"{"op": "update", "id": "Row", "set": {"android": {"temporarilyDetached": true}}}"#)
        let moved = try list.phase("t", "moved", 100, 151)
        #expect(moved["message"] == "ACTION_CANCEL" && moved["view"] == "Row")
        #expect(try list.phase("t", "ended", 100, 151)["view"] == "List")
    }

    @Test("AS5 AV5 an inner ScrollView with nested scrolling scrolls first and hands the rest to the outer")
    func nestedScrolling() throws {
        let btn = button("Btn", 0, 0, 400, 100, "save")
        let inner = v(
            "Inner", 0, 100, 400, 300,
            #""class": "UIScrollView", "contentSize": [400, 310], "android": {"nestedScrollingEnabled": true}"#,
            children: [v("IC", 0, 0, 400, 310, children: [btn])])
        let outer = v(
            "Outer", 0, 0, 400, 800, #""class": "UIScrollView", "contentSize": [400, 2000]"#,
            children: [v("OC", 0, 0, 400, 2000, children: [inner])])
        var s = try androidSession(fixtureF([outer]))
        let d = try s.touch(
            touches([("t", "began", 200, 150, 0), ("t", "moved", 200, 130, 0.02), ("t", "moved", 200, 100, 0.04)]),
            client: "c")
        #expect(steps(d, "nestedScroll").map { $0["accepted"]?.boolValue } == [false, true])
        #expect(steps(d, "intercept").contains { $0["group"] == "Outer" && $0["reason"] == "nested-scroll" })
        #expect(
            steps(d, "change").map { [$0["id"]?.stringValue, $0["rule"]?.stringValue] } == [
                ["Inner", "AS2"], ["Outer", "AS5"]
            ])
    }

    @Test("AD8 a DOWN through 20,000 nested groups uses no recursion", .tags(.slow))
    func slowDeepTree() throws {
        let depth = 20_000
        var s = try androidSession(fixtureF())
        var ops: [GuardedOp] = []
        for i in 0..<depth {
            let node: JSON = ["id": .string("v\(i)"), "kind": "view", "frame": [0, 0, 10, 10]]
            ops.append(
                try GuardedOp(
                    wire: ["op": "insert", "parent": .string(i == 0 ? "R" : "v\(i - 1)"), "node": node], index: i))
        }
        _ = try s.apply(ops, ifRevision: nil, limits: .default)
        let d = try s.tap(at: Point(5, 5), tapCount: 1, time: nil, client: "c")
        #expect(d.outcome.deliveries.first?.visited.count == depth + 2)  // every view, R, then the DecorView
        #expect(d.outcome.deliveries.first?.reason == .unhandled)
    }

    @Test("AK2 AK3 AK6 focus requests, refusals and clearing, published as focus changes")
    func focus() throws {
        var s = try androidSession(
            fixtureF([v("Name", 0, 0, 100, 40, kind: "textField"), button("Go", 0, 100, 100, 40, "go")]))
        let became = try s.become(["id": "Name"])
        #expect(became.outcome.result && became.focus.count == 1)
        #expect(try s.become(["id": "Go"]).outcome.reason == .cannotBecome)
        let resigned = try s.resign(["id": "Name"])
        #expect(resigned.outcome.resigned == "Name")
        #expect(resigned.focus.first?["reason"] == "clear")
        #expect(s.keyFR == .null)
    }

    /// R > Container > Fr1 > Fr1V > Nested (a child fragment), then Fr2 > Fr2V; each controller's android
    /// members as given.
    func fragments(fr1: String, nested: String, fr2: String, rvc: String = "") -> String {
        func vc(_ id: String, _ android: String, _ view: String) -> String {
            #"{"id": "\#(id)", "kind": "viewController", "android": {\#(android)}, "children": [\#(view)]}"#
        }
        let nestedVC = vc("Nested", nested, v("NestedV", 0, 0, 10, 10))
        let fr1VC = vc("Fr1", fr1, v("Fr1V", 0, 0, 100, 100, children: [nestedVC]))
        let fr2VC = vc("Fr2", fr2, v("Fr2V", 0, 100, 100, 100))
        return fixtureF([v("Container", 0, 0, 400, 400, children: [fr1VC, fr2VC])], rvc: rvc)
    }

    func back(_ s: inout SessionState, _ id: String) throws -> Traced<PressOutcome> {
        _ = try s.press(["press": .string(id), "phase": "began", "key": "BACK"], client: "c")
        return try s.press(["press": .string(id), "phase": "ended"], client: "c")
    }

    @Test("AK10 BACK goes to the last enabled back callback in tree order; AX5 an action mode is finished first")
    func backCallbacksAndActionModes() throws {
        let on = #""backCallback": {"enabled": true}"#
        let off = #""backCallback": {"enabled": false}"#
        var s = try androidSession(fragments(fr1: on, nested: on, fr2: off))
        #expect(steps(try back(&s, "1"), "fragment").map { $0["id"]?.stringValue } == ["Nested"])
        s = try androidSession(fragments(fr1: on, nested: off, fr2: on))
        #expect(steps(try back(&s, "1"), "fragment").map { $0["id"]?.stringValue } == ["Fr2"])
        s = try androidSession(fragments(fr1: off, nested: off, fr2: off))
        #expect(steps(try back(&s, "1"), "fragment").isEmpty)
        s = try androidSession(fragments(fr1: on, nested: on, fr2: on, rvc: #""android": {"actionMode": true}"#))
        let finished = try back(&s, "1")
        #expect(steps(finished, "fragment").isEmpty)
        #expect(
            steps(finished, "activity").map { $0["method"]?.stringValue } == [
                "onActionModeFinished", "dispatchKeyEvent"
            ])
        #expect(s.world["RVC"]?.spec.android?.actionMode == false)
        #expect(steps(try back(&s, "2"), "fragment").map { $0["id"]?.stringValue } == ["Fr2"])
    }

    @Test("AX3 an options item: the Activity, then the fragments with a shown options menu, in tree order")
    func optionsMenuItems() throws {
        let menu = #""hasOptionsMenu": true, "onOptionsItemSelected": ["share"]"#
        var s = try androidSession(fragments(fr1: #""hasOptionsMenu": true"#, nested: menu, fr2: menu))
        let d = try s.menuItem("share", menu: .options, view: nil)
        #expect(d.outcome.performed && d.outcome.by == "Nested" && d.outcome.visited == ["RVC", "Fr1", "Nested"])
        s = try androidSession(fragments(fr1: "", nested: #""hidden": true, "hasOptionsMenu": true"#, fr2: menu))
        #expect(try s.menuItem("share", menu: .options, view: nil).outcome.visited == ["RVC", "Fr2"])
        // A hidden fragment hides its child fragments' menus too; one without an options menu does not.
        s = try androidSession(fragments(fr1: #""hidden": true"#, nested: menu, fr2: menu))
        #expect(try s.menuItem("share", menu: .options, view: nil).outcome.visited == ["RVC", "Fr2"])
        s = try androidSession(fragments(fr1: "", nested: menu, fr2: menu))
        #expect(try s.menuItem("share", menu: .options, view: nil).outcome.visited == ["RVC", "Nested"])
    }

    @Test("AR1 a window that is not touchable is passed over and obscures the one behind (AV4)")
    func untouchableWindowsObscure() throws {
        let front =
            #"{"id": "W2", "kind": "window", "frame": [0, 0, 400, 100], "windowLevel": 1, "android": {"touchable": false}, "children": []}"#
        var s = try androidSession(
            fixtureF(
                [button("Btn", 0, 0, 400, 200, "save", #""android": {"filterTouchesWhenObscured": true}"#)],
                windows: [front]))
        let under = try s.tap(50, 50)
        #expect(under.outcome.deliveries.first?.window == "W")
        #expect(actions(under).isEmpty)
        #expect(steps(under, "offer").first?["rule"] == "AV4")
        #expect(actions(try s.tap(50, 150)) == ["save"])
    }
}
