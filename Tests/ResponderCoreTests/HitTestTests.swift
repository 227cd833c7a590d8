import ResponderCore
import ResponderProtocol
import Testing

@Suite("Hit-testing (H1–H8, P1–P7)")
struct HitTestTests {
    @Test("H1 windows are tried in descending windowLevel; the first that answers wins")
    func h1WindowLevel() throws {
        let alert =
            #"{"id": "W2", "kind": "window", "windowLevel": 2000, "frame": [0, 0, 200, 200], "children": [\#(v("Alert", 0, 0, 100, 100))]}"#
        // W2 comes first in the children order but is added before W? No: after W, so also test ties below.
        let s = try session(fixtureF([v("V", 0, 0, 400, 400)], windows: [alert]))
        let a = try s.hit(50, 50)
        #expect(a["window"] == "W2")
        #expect(a["view"] == "Alert")
        // W2's window background answers for (150, 150); W is never asked.
        let b = try s.hit(150, 150)
        #expect(b["view"] == "W2")
        #expect(!visitedIDs(b).contains("W"))
        // Outside W2: W2 misses, W is asked next.
        let c = try s.hit(300, 300)
        #expect(c["window"] == "W")
        #expect(c["view"] == "V")
        #expect(visitedIDs(c).prefix(2) == ["W2", "W"])
    }

    @Test("H1 a lower level loses even when it comes later; ties go to the later window")
    func h1TiesAndOrder() throws {
        let low = #"{"id": "Low", "kind": "window", "windowLevel": -1, "frame": [0, 0, 400, 800]}"#
        let twin = #"{"id": "Twin", "kind": "window", "frame": [0, 0, 400, 800]}"#
        let s = try session(fixtureF(windows: [low, twin]))
        let a = try s.hit(10, 10)
        #expect(a["window"] == "Twin")
        #expect(visitedIDs(a) == ["Twin"])
        var s2 = s
        _ = try s2.ops(#"{"op": "update", "id": "Twin", "set": {"hidden": true}}"#)
        let b = try s2.hit(10, 10)
        #expect(b["window"] == "W")
        #expect(visitedIDs(b).prefix(2) == ["Twin", "W"])
        #expect(!visitedIDs(b).contains("Low"))
    }

    @Test("H1 screen points are converted into each window through its frame; detached windows are never tried")
    func h1ScreenConversion() throws {
        let offset =
            #"{"id": "W2", "kind": "window", "windowLevel": 1, "frame": [100, 100, 200, 200], "children": [\#(v("In", 40, 40, 20, 20))]}"#
        let detached = #"{"id": "Ghost", "kind": "window", "windowLevel": 99, "frame": [0, 0, 400, 800]}"#
        let s = try session(fixtureF(windows: [offset]), detached: [detached])
        let a = try s.hit(150, 150)
        #expect(a["view"] == "In")
        #expect(a["localPoint"] == point(10, 10))
        #expect(!visitedIDs(a).contains("Ghost"))
        #expect(try s.hit(20, 20)["window"] == "W")
    }

    @Test("H2 subviews are asked front-most first and the first answer wins (P1: B and D never asked)")
    func h2FrontMostFirstP1() throws {
        let s = try session(fixtureF(treeT1))
        let a = try s.hit(250, 250)
        #expect(a["view"] == "E")
        #expect(visitedIDs(a) == ["W", "R", "A", "C", "E"])
        #expect(a["localPoint"] == point(50, 50))
        // Overlapping siblings: the later (front-most) one wins.
        let s2 = try session(fixtureF([v("Back", 0, 0, 100, 100), v("Front", 50, 50, 100, 100)]))
        #expect(try s2.hit(75, 75)["view"] == "Front")
        #expect(try s2.hit(25, 25)["view"] == "Back")
    }

    @Test("P2 a miss in front lets the view behind answer; the miss is explained with its local point")
    func p2MissThenBehind() throws {
        let s = try session(fixtureF(treeT1))
        let a = try s.hit(120, 120)
        #expect(a["view"] == "D")
        #expect(visitedIDs(a) == ["W", "R", "A", "C", "E", "D"])
        let e = try #require(visit(a, "E"))
        #expect(e["result"] == "miss")
        #expect(e["reason"] == "outside-bounds")
        #expect(e["point"] == point(-80, -80))
    }

    @Test("H2 hidden, alpha < 0.01 and interaction-disabled views exclude their whole subtree")
    func h2Exclusions() throws {
        for (extra, reason) in [
            (#""hidden": true"#, "hidden"), (#""alpha": 0.005"#, "alpha"),
            (#""userInteractionEnabled": false"#, "interaction-disabled")
        ] {
            let s = try session(
                fixtureF([
                    v("Under", 0, 0, 400, 400), v("P", 0, 0, 200, 200, extra, children: [v("Child", 0, 0, 100, 100)])
                ]))
            let a = try s.hit(50, 50)
            #expect(a["view"] == "Under", "\(reason)")
            #expect(visit(a, "P")?["reason"] == .string(reason))
            #expect(visit(a, "P")?["rule"] == "H2")
            #expect(visit(a, "Child") == nil, "an excluded view's subviews are never asked")
        }
    }

    @Test("H2 alpha 0.01 itself is hittable, and each view checks only its own alpha")
    func h2AlphaBoundaryOwnAlpha() throws {
        let s = try session(
            fixtureF([
                v("P", 0, 0, 200, 200, #""alpha": 0.02"#, children: [v("Child", 0, 0, 100, 100, #""alpha": 0.01"#)])
            ]))
        // P's alpha 0.02 and the child's 0.01 are not multiplied: the child is hit.
        #expect(try s.hit(50, 50)["view"] == "Child")
    }

    @Test("H3 point(inside:) is half-open, an empty rect contains nothing, boundsOrigin shifts it (P3)")
    func h3HalfOpenAndBoundsOrigin() throws {
        let s = try session(fixtureF([v("V", 100, 100, 50, 50), v("Empty", 0, 0, 0, 50)]))
        #expect(try s.hit(100, 100)["view"] == "V")
        #expect(try s.hit(149.5, 149.5)["view"] == "V")
        #expect(try s.hit(150, 150)["view"] == "R")
        #expect(try s.hit(150, 120)["view"] == "R")
        #expect(try s.hit(0, 10)["view"] == "R")
        #expect(visit(try s.hit(0, 10), "Empty")?["reason"] == "outside-bounds")
    }

    @Test("P3 scroll offset: bounds origin shifts hit-testing into the rows")
    func p3ScrollOffset() throws {
        let scroll = v(
            "S", 0, 100, 400, 200, #""boundsOrigin": [0, 300]"#,
            children: [v("Row1", 0, 300, 400, 50), v("Row2", 0, 350, 400, 50)])
        let s = try session(fixtureF([scroll]))
        let a = try s.hit(10, 120)
        #expect(a["view"] == "Row1")
        #expect(a["localPoint"] == point(10, 20))
        let b = try s.hit(10, 180)
        #expect(b["view"] == "Row2")
        #expect(b["localPoint"] == point(10, 30))
        #expect(try s.hit(10, 90)["view"] == "R")
    }

    @Test("H4 conversion into a subview applies the inverse transform about its center")
    func h4Transform() throws {
        // V covers (100…200)² untransformed; scaled 2× about its center it covers (50…250)².
        let s = try session(fixtureF([v("V", 100, 100, 100, 100, #""transform": [2, 0, 0, 2, 0, 0]"#)]))
        let a = try s.hit(60, 60)
        #expect(a["view"] == "V")
        #expect(a["localPoint"] == point(5, 5))
        #expect(try s.hit(40, 40)["view"] == "R")
        let plain = try session(fixtureF([v("V", 100, 100, 100, 100)]))
        #expect(try plain.hit(60, 60)["view"] == "R")
        // A singular transform makes the view unhittable, and says why.
        let flat = try session(fixtureF([v("V", 100, 100, 100, 100, #""transform": [0, 0, 0, 0, 0, 0]"#)]))
        let b = try flat.hit(150, 150)
        #expect(b["view"] == "R")
        #expect(visit(b, "V")?["reason"] == "singular-transform")
    }

    @Test("H5 / P4 a subview's part outside its superview is never hit, whatever clipsToBounds")
    func h5OutsideSuperviewP4() throws {
        for clips in ["false", "true"] {
            let s = try session(
                fixtureF([
                    v("P", 100, 100, 100, 100, "\"clipsToBounds\": \(clips)", children: [v("X", 50, 50, 100, 100)])
                ]))
            #expect(try s.hit(180, 180)["view"] == "X")
            let a = try s.hit(220, 220)
            #expect(a["view"] == "R")
            #expect(visit(a, "X") == nil)
        }
    }

    @Test("H6 / P5 an enlarged hit area helps only where the ancestors also contain the point")
    func h6EnlargedAreaP5() throws {
        let btn = v("Btn", 0, 0, 20, 20, #""hitTest": {"insets": [-20, -20, -20, -20]}"#)
        let s = try session(fixtureF([v("P", 100, 100, 200, 200, children: [btn])]))
        let a = try s.hit(135, 135)
        #expect(a["view"] == "Btn")
        #expect(a["localPoint"] == point(35, 35))
        let b = try s.hit(95, 95)
        #expect(b["view"] == "R")
        #expect(visit(b, "Btn") == nil)
        // A shrunk area (positive insets) misses near the edges and names H6.
        let shrunk = try session(fixtureF([v("V", 0, 0, 100, 100, #""hitTest": {"insets": [10, 10, 10, 10]}"#)]))
        let c = try shrunk.hit(5, 5)
        #expect(c["view"] == "R")
        #expect(visit(c, "V")?["rule"] == "H6")
    }

    @Test("H6 / P6 a pass-through overlay: subviews stay hittable, the views behind answer for it")
    func h6PassThroughP6() throws {
        let overlay = v(
            "Overlay", 0, 0, 400, 800, #""hitTest": {"mode": "passThroughSelf"}"#, children: [v("Chip", 10, 10, 50, 50)]
        )
        let s = try session(fixtureF([v("Under", 0, 0, 400, 400), overlay]))
        let a = try s.hit(200, 200)
        #expect(a["view"] == "Under")
        #expect(visit(a, "Overlay")?["result"] == "skipped")
        #expect(visit(a, "Overlay")?["reason"] == "pass-through")
        #expect(try s.hit(20, 20)["view"] == "Chip")
        #expect(try s.hit(200, 600)["view"] == "R")
    }

    @Test("H6 / P7 redirect when self: the named view becomes the touch's view even outside its bounds")
    func h6RedirectSelfP7() throws {
        let cell = v(
            "Cell", 0, 100, 400, 80, #""hitTest": {"redirect": {"to": "Scroll", "when": "self"}}"#,
            children: [v("Scroll", 100, 0, 200, 80)])
        var s = try session(fixtureF([cell], rExtra: #""handles": {"touchesMoved": "handle"}"#))
        let a = try s.hit(20, 140)
        #expect(a["view"] == "Scroll")
        #expect(a["localPoint"] == point(-80, 40))
        #expect(visit(a, "Cell")?["reason"] == "redirect")
        let began = try s.phase("t", "began", 20, 140)
        #expect(began["view"] == "Scroll")
        let moved = try s.phase("t", "moved", 30, 300)
        #expect(moved["view"] == "Scroll")
        #expect(strings(moved["visited"]) == ["Scroll", "Cell", "R"])
    }

    @Test("H6 redirect when nil: a cell claims points outside its bounds for its scroll view (seed 004 §4)")
    func h6RedirectNil() throws {
        let cell = v(
            "Cell", 0, 100, 200, 80, #""hitTest": {"redirect": {"to": "Scroll", "when": "nil"}}"#,
            children: [v("Scroll", 0, 0, 400, 80)])
        let s = try session(fixtureF([cell]))
        let a = try s.hit(300, 140)
        #expect(a["view"] == "Scroll")
        #expect(a["localPoint"] == point(300, 40))
        // Inside the cell the normal answer stands.
        #expect(try s.hit(50, 140)["view"] == "Scroll")
        let without = try session(fixtureF([v("Cell", 0, 100, 200, 80, children: [v("Scroll", 0, 0, 400, 80)])]))
        #expect(try without.hit(300, 140)["view"] == "R")
    }

    @Test("H6 never hides the whole subtree")
    func h6Never() throws {
        let s = try session(
            fixtureF([
                v("Under", 0, 0, 400, 400),
                v("V", 0, 0, 200, 200, #""hitTest": {"mode": "never"}"#, children: [v("Child", 0, 0, 100, 100)])
            ]))
        let a = try s.hit(50, 50)
        #expect(a["view"] == "Under")
        #expect(visit(a, "V")?["reason"] == "never")
        #expect(visit(a, "Child") == nil)
    }

    @Test("H7 a disabled control ignores touches: the hit falls to what is behind it")
    func h7DisabledControl() throws {
        var s = try session(
            fixtureF([v("Under", 0, 0, 400, 400), v("Btn", 0, 0, 100, 100, kind: "control", #""enabled": false"#)]))
        let a = try s.hit(50, 50)
        #expect(a["view"] == "Under")
        #expect(visit(a, "Btn")?["reason"] == "disabled-control")
        #expect(visit(a, "Btn")?["rule"] == "H7")
        _ = try s.ops(#"{"op": "update", "id": "Btn", "set": {"enabled": true}}"#)
        #expect(try s.hit(50, 50)["view"] == "Btn")
    }

    @Test("H8 every visited view is explained with a result, a reason and a rule; hitTest has no side effects")
    func h8Explanation() throws {
        let s = try session(
            fixtureF([
                v("Hidden", 0, 0, 400, 400, #""hidden": true"#),
                v("Off", 0, 0, 400, 400, #""userInteractionEnabled": false"#)
            ]))
        let a = try s.hit(10, 10)
        #expect(a["view"] == "R")
        let visits = a["visited"]!.arrayValue!
        #expect(visits.map { $0["id"]!.stringValue! } == ["W", "R", "Off", "Hidden"])
        #expect(visits.map { $0["result"]!.stringValue! } == ["hit", "hit", "miss", "miss"])
        #expect(visits[2]["reason"] == "interaction-disabled")
        #expect(visits[3]["reason"] == "hidden")
        #expect(visits.allSatisfy { $0["rule"]?.stringValue?.hasPrefix("H") == true })
        let outside = try s.hit(500, 500)
        #expect(outside["view"] == .null)
        #expect(visit(outside, "W")?["reason"] == "outside-bounds")
        #expect(wire(s.liveTouches) == [])
    }

    @Test("H2 a view controller's root view is asked at the controller's place among its parent's subviews")
    func h2ControllerRootViewOrder() throws {
        let child = #"{"id": "ChildVC", "kind": "viewController", "children": [\#(v("CV", 0, 0, 200, 200))]}"#
        let s = try session(fixtureF([v("Back", 0, 0, 200, 200), child]))
        #expect(try s.hit(50, 50)["view"] == "CV")
        let s2 = try session(fixtureF([child, v("Front", 0, 0, 200, 200)]))
        #expect(try s2.hit(50, 50)["view"] == "Front")
    }

    @Test("H2 a window's own children: its views and its controller's root view asked front-most first")
    func h2WindowChildrenInOrder() throws {
        // Nothing presented, so the window's children are resolved as they are asked (K9 orders them otherwise).
        let window =
            #"{"id": "W", "kind": "window", "key": true, "frame": [0, 0, 400, 800], "children": [\#(v("Back", 0, 0, 400, 800)), {"id": "RVC", "kind": "viewController", "children": [\#(v("R", 0, 0, 200, 200))]}, \#(v("Front", 0, 0, 100, 100))]}"#
        let s = try session(#"{"id": "app", "kind": "application", "children": [\#(window)]}"#)
        for (x, view, visited) in [
            (50.0, "Front", ["W", "Front"]), (150, "R", ["W", "Front", "R"]), (300, "Back", ["W", "Front", "R", "Back"])
        ] {
            let a = try s.hit(x, x)
            #expect(a["view"] == .string(view))
            #expect(visitedIDs(a) == visited)
        }
    }

    @Test("hitTest rejects unknown params and requires a point")
    func hitTestParams() throws {
        let s = try session(fixtureF())
        expectError(.invalidParams) { _ = try s.hitTest(["point": point(1, 1), "pointt": 1]) }
        expectError(.invalidParams) { _ = try s.hitTest(["session": "x"]) }
        #expect(try s.hitTest(["point": point(1, 1), "session": "x"])["view"] == "R")
    }

    @Test("H8 hitTest answers with a trace: one hitTest step per view asked, the outcome beside it")
    func hitTestTrace() throws {
        let s = try session(fixtureF(treeT1))
        let reply = try s.hit(250, 250)
        let trace = try #require(reply["trace"])
        #expect(trace["kind"] == "hitTest")
        #expect(trace["outcome"] == withoutTrace(reply))
        let asked = (trace["steps"]?.arrayValue ?? []).filter { $0["step"] == "hitTest" }
        #expect(asked.map { $0["id"]! } == ["W", "R", "A", "C", "E"])
        #expect(
            asked.map { $0.setting("step", .null) }
                == (reply["visited"]?.arrayValue ?? []).map { $0.setting("step", .null) })
        let nowhere = try s.hit(900, 900)
        #expect(nowhere["view"] == .null)
        #expect((nowhere["trace"]?["steps"]?.arrayValue ?? []).last?["reason"] == "no-hit")
    }
}
