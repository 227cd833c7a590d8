import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// G12, K8 (touchesShouldCancel), K19–K21: which scroll view a drag moves, the scroll pan among the other
/// recognizers, a scroll view's own touches and paging.
@Suite struct ScrollDirectionTests {
    /// A vertical feed Feed(0,0,400,800; content 400×3000) holding a horizontal carousel Carousel(0,100,400,200;
    /// content 1200×200) whose card K fills it.
    func feed(carousel extra: String = "", feed feedExtra: String = "", card: String = handlesAll) throws
        -> SessionState
    {
        let carousel = v(
            "Carousel", 0, 100, 400, 200,
            #""class": "UIScrollView", "contentSize": [1200, 200], \#(extra)"clipsToBounds": true"#,
            children: [v("K", 0, 0, 1200, 200, card)])
        let feed = v(
            "Feed", 0, 0, 400, 800,
            #""class": "UIScrollView", "contentSize": [400, 3000], \#(feedExtra)"clipsToBounds": true"#,
            children: [carousel])
        return try session(fixtureF([feed], rvc: rvcHandles))
    }

    func summary(_ t: GestureTransition) -> String {
        "\(t.recognizer) \(t.to.rawValue) \(t.rule.rawValue) \(t.reason?.rawValue ?? "")\(t.by.map { " by " + $0 } ?? "")"
    }

    @Test("K19 a vertical drag inside a horizontal carousel nested in a vertical feed scrolls the feed")
    func K19_verticalDragScrollsTheFeed() throws {
        var s = try feed()
        let d = try s.touches([("t", "began", 200, 200, 0), ("t", "moved", 200, 150, 0.05)])
        #expect(changes(d) == ["Feed.boundsOrigin=[0,50]"])
        #expect(
            gestureSteps(d).map(summary) == [
                "Feed.pan began G2 threshold", "Carousel.pan failed G4 excluded by Feed.pan"
            ])
    }

    @Test("K19 a horizontal drag inside the carousel scrolls the carousel, not the feed")
    func K19_horizontalDragScrollsTheCarousel() throws {
        var s = try feed()
        let d = try s.touches([("t", "began", 300, 200, 0), ("t", "moved", 250, 200, 0.05)])
        #expect(changes(d) == ["Carousel.boundsOrigin=[50,0]"])
        #expect(
            gestureSteps(d).map(summary) == [
                "Carousel.pan began G2 threshold", "Feed.pan failed G4 excluded by Carousel.pan"
            ])
    }

    @Test("K19 both axes past the threshold in one move: the inner scroll view, which can scroll along one of them")
    func K19_bothAxesGoToTheInner() throws {
        var s = try feed()
        let d = try s.touches([("t", "began", 300, 200, 0), ("t", "moved", 280, 180, 0.05)])
        #expect(changes(d) == ["Carousel.boundsOrigin=[20,0]"])
    }

    @Test("K19 movement only along an axis it cannot scroll keeps the pan possible; it begins later along one it can")
    func K19_heldThenBeginsAlongAScrollableAxis() throws {
        var s = try session(
            fixtureF([
                v(
                    "Carousel", 0, 100, 400, 200, #""class": "UIScrollView", "contentSize": [1200, 200]"#,
                    children: [
                        v("K", 0, 0, 1200, 200, handlesAll)
                    ])
            ]))
        let down = try s.touches([("t", "began", 300, 200, 0), ("t", "moved", 300, 230, 0.05)])
        #expect(gestureSteps(down).isEmpty && changes(down).isEmpty)
        #expect(
            down.trace.steps.filter { if case .scrollAxis = $0 { true } else { false } } == [
                .scrollAxis(recognizer: "Carousel.pan", scrollView: "Carousel", axes: ["vertical"])
            ])
        #expect(s.recognizers.first { $0.recognizer == "Carousel.pan" }?.state == .possible)
        let across = try s.touches([("t", "moved", 260, 230, 0.1)])
        #expect(gestureSteps(across).map(summary) == ["Carousel.pan began G2 threshold"])
        #expect(changes(across) == ["Carousel.boundsOrigin=[40,0]"])
    }

    @Test("K19 a scroll view that can scroll on neither axis never scrolls: its pan fails when the touch ends")
    func K19_neitherAxisFailsAtTouchEnd() throws {
        var s = try session(
            fixtureF([
                v(
                    "S", 0, 0, 400, 400, #""class": "UIScrollView", "contentSize": [400, 400]"#,
                    children: [
                        v("C", 0, 0, 400, 400, handlesAll)
                    ])
            ]))
        let moved = try s.touches([("t", "began", 200, 300, 0), ("t", "moved", 150, 200, 0.05)])
        #expect(gestureSteps(moved).isEmpty && changes(moved).isEmpty)
        let ended = try s.touches([("t", "ended", 150, 200, 0.1)])
        #expect(gestureSteps(ended).first.map(summary) == "S.pan failed K19 cannot-scroll")
        #expect(viewMessages(ended, "C") == ["touchesBegan", "touchesMoved", "touchesEnded"])
    }

    @Test("K19 alwaysBounceVertical lets content that fits scroll vertically, only while bounces is true")
    func K19_alwaysBounce() throws {
        func drag(_ extra: String) throws -> [String] {
            var s = try session(
                fixtureF([
                    v(
                        "S", 0, 0, 400, 400, #""class": "UIScrollView", "contentSize": [400, 400], \#(extra)"#,
                        children: [
                            v("C", 0, 0, 400, 400, handlesAll)
                        ])
                ]))
            return gestureSteps(try s.touches([("t", "began", 200, 300, 0), ("t", "moved", 200, 280, 0.05)])).map(
                summary)
        }
        #expect(try drag(#""alwaysBounceVertical": true"#) == ["S.pan began G2 threshold"])
        #expect(try drag(#""alwaysBounceVertical": true, "bounces": false"#).isEmpty)
        #expect(try drag(#""alwaysBounceHorizontal": true"#).isEmpty)  // the drag is vertical
    }

    @Test("K19 the pan threshold is per axis: a diagonal move of 8,8 (11.3 in a straight line) does not begin a pan")
    func K19_perAxisThreshold() throws {
        func drag(_ dx: Double, _ dy: Double) throws -> [String] {
            var s = try session(
                fixtureF([v("P", 100, 100, 200, 200, recognizers(rec("pan", "pan")))], rvc: rvcHandles))
            return transitions(try s.touches([("t", "began", 150, 150, 0), ("t", "moved", 150 + dx, 150 + dy, 0.05)]))
        }
        #expect(try drag(8, 8).isEmpty)
        #expect(try drag(0, 10) == ["pan:possible→began"])
        #expect(try drag(-10, 3) == ["pan:possible→began"])
    }

    @Test("G12 a recognizer may require the scroll view's pan to fail: it waits, and fails when the scroll begins")
    func G12_requireScrollPanToFail() throws {
        var s = try feed(card: handlesAll + ", " + recognizers(rec("tap1", "tap", #""requireToFail": ["Feed.pan"]"#)))
        let tap = try s.touches([("a", "began", 200, 200, 0), ("a", "ended", 200, 200, 0.05)])
        // The feed's pan fails at the touch's end (it never moved), then the tap recognizes (G5).
        #expect(transitions(tap).contains("tap1:possible→recognized"))
        #expect(tap.trace.steps.contains { if case .gestureWait("tap1", ["Feed.pan"]) = $0 { true } else { false } })
        var drag = try feed(
            card: handlesAll + ", "
                + recognizers(rec("swipe", "swipe", #""direction": ["up"], "requireToFail": ["Feed.pan"]"#)))
        let d = try drag.touches([("a", "began", 200, 250, 0), ("a", "moved", 200, 180, 0.05)])
        #expect(gestureSteps(d).map(summary).contains("swipe failed G5 required-recognized by Feed.pan"))
    }

    @Test(
        "G12 a recognizer may name a scroll view's built-in pan; `<id>.pan` of a view that is no scroll view names nothing"
    )
    func G12_referencesToTheBuiltInPan() throws {
        var s = try feed()
        _ = try s.ops(
            #"{"op": "update", "id": "K", "set": {"gestureRecognizers": [{"id": "t", "kind": "tap", "requireToFail": ["Feed.pan"], "simultaneousWith": ["Carousel.pan"]}]}}"#
        )
        do {
            _ = try s.ops(
                #"{"op": "update", "id": "K", "set": {"gestureRecognizers": [{"id": "t", "kind": "tap", "requireToFail": ["K.pan"]}]}}"#
            )
            Issue.record("expected INVALID_NODE")
        } catch let e as RPCError {
            #expect(
                e.name == .invalidNode
                    && e.detail("field")?.stringValue == "ops[0].set.gestureRecognizers[0].requireToFail[0]")
        }
    }

    @Test("G12 a recognizer may list the scroll view's pan in simultaneousWith: both begin")
    func G12_simultaneousWithScrollPan() throws {
        var s = try feed(card: handlesAll + ", " + recognizers(rec("pan", "pan", #""simultaneousWith": ["Feed.pan"]"#)))
        let d = try s.touches([("a", "began", 200, 200, 0), ("a", "moved", 200, 150, 0.05)])
        #expect(Set(transitions(d)).isSuperset(of: ["pan:possible→began", "Feed.pan:possible→began"]))
        #expect(changes(d) == ["Feed.boundsOrigin=[0,50]"])
        var plain = try feed(card: handlesAll + ", " + recognizers(rec("pan", "pan")))
        let excluded = try plain.touches([("a", "began", 200, 200, 0), ("a", "moved", 200, 150, 0.05)])
        #expect(gestureSteps(excluded).map(summary).contains("Feed.pan failed G4 excluded by pan"))
    }

    @Test("G12 the scroll view's own delegate answers: simultaneousWith, shouldBegin, shouldReceiveTouch")
    func G12_panDelegate() throws {
        let card = handlesAll + ", " + recognizers(rec("pan", "pan"))
        var both = try feed(feed: #""panDelegate": {"simultaneousWith": ["pan"]}, "#, card: card)
        let d = try both.touches([("a", "began", 200, 200, 0), ("a", "moved", 200, 150, 0.05)])
        #expect(changes(d) == ["Feed.boundsOrigin=[0,50]"])
        var refuses = try feed(feed: #""panDelegate": {"shouldBegin": false}, "#)
        let r = try refuses.touches([("a", "began", 200, 400, 0), ("a", "moved", 200, 350, 0.05)])
        #expect(gestureSteps(r).map(summary) == ["Feed.pan failed G6 should-begin-false"])
        var deaf = try feed(feed: #""panDelegate": {"shouldReceiveTouch": false}, "#)
        let began = try deaf.touches([("a", "began", 200, 400, 0)])
        #expect(
            began.trace.steps.contains {
                if case .observe("Feed.pan", _, _, false, .shouldReceiveTouchFalse) = $0 { true } else { false }
            })
    }

    @Test("G12 panRequireToFail: the scroll waits for the recognizer it requires, and fails if that one recognizes")
    func G12_panRequireToFail() throws {
        let card = handlesAll + ", " + recognizers(rec("swipe", "swipe", #""direction": ["right"]"#))
        var s = try feed(feed: #""panRequireToFail": ["swipe"], "#, card: card)
        let waits = try s.touches([("a", "began", 200, 250, 0), ("a", "moved", 200, 230, 0.05)])
        #expect(waits.trace.steps.contains { if case .gestureWait("Feed.pan", ["swipe"]) = $0 { true } else { false } })
        #expect(changes(waits).isEmpty)
        let released = try s.touches([("a", "moved", 200, 180, 0.1)])
        #expect(
            gestureSteps(released).map(summary).prefix(3) == [
                "swipe failed G2 wrong-direction", "Feed.pan began G5 required-failed",
                "Carousel.pan failed G4 excluded by Feed.pan"
            ])
        var right = try feed(feed: #""panRequireToFail": ["swipe"], "#, card: card)
        let swiped = try right.touches([
            ("a", "began", 100, 200, 0), ("a", "moved", 100, 220, 0.05), ("a", "moved", 170, 220, 0.1)
        ])
        #expect(gestureSteps(swiped).map(summary).contains("Feed.pan failed G5 required-recognized by swipe"))
    }

    @Test("K8 touchesShouldCancel always: a drag that starts on a button scrolls and the button gets touchCancel")
    func K8_touchesShouldCancelAlways() throws {
        func press(_ answer: String) throws -> Traced<TouchOutcome> {
            var s = try session(
                fixtureF([
                    v(
                        "S", 0, 0, 400, 400,
                        #""class": "UIScrollView", "contentSize": [400, 1000], "touchesShouldCancel": "\#(answer)""#,
                        children: [
                            v("B", 0, 200, 400, 200, kind: "control", #""class": "UIButton""#),
                            v("C", 0, 0, 400, 200, handlesAll)
                        ])
                ]))
            _ = try s.touches([("a", "began", 100, 300, 0)])
            _ = try s.advance(to: 0.2)
            return try s.touches([("a", "moved", 100, 200, 0.3)])
        }
        let always = try press("always")
        #expect(changes(always) == ["S.boundsOrigin=[0,100]"] && controlEvents(always) == ["touchCancel"])
        let usual = try press("default")
        #expect(gestureSteps(usual).first.map(summary) == "S.pan failed K8 control-keeps-touch by B")
        var never = try session(
            fixtureF([
                v(
                    "S", 0, 0, 400, 400,
                    #""class": "UIScrollView", "contentSize": [400, 1000], "touchesShouldCancel": "never""#,
                    children: [
                        v("C", 0, 0, 400, 400, handlesAll)
                    ])
            ]))
        _ = try never.touches([("a", "began", 100, 300, 0)])
        _ = try never.advance(to: 0.2)
        let kept = try never.touches([("a", "moved", 100, 200, 0.3)])
        #expect(gestureSteps(kept).first.map(summary) == "S.pan failed K8 touches-should-cancel-false by C")
        #expect(viewMessages(kept, "C") == ["touchesMoved"] && changes(kept).isEmpty)
    }

    @Test("K20 a scroll view with scrolling enabled stops the touches on its own area; disabled, it forwards them")
    func K20_scrollViewKeepsItsTouches() throws {
        func tap(_ extra: String) throws -> Traced<TouchOutcome> {
            var s = try session(
                fixtureF(
                    [v("S", 0, 0, 400, 400, #""class": "UIScrollView", "contentSize": [400, 1000]\#(extra)"#)],
                    rvc: #""handles": {"touchesBegan": "handle", "touchesEnded": "handle"}"#))
            return try s.touches([("a", "began", 100, 300, 0), ("a", "ended", 100, 300, 0.05)])
        }
        func delivered(_ d: Traced<TouchOutcome>) -> [String] {
            d.trace.steps.compactMap {
                guard case .deliver(let to, "touchesBegan", let disposition, let rule, _, _) = $0 else { return nil }
                return "\(to) \(disposition.rawValue) \(rule.rawValue)"
            }
        }
        #expect(delivered(try tap("")) == ["S handled K20"])
        #expect(
            delivered(try tap(#", "scrollEnabled": false"#)) == [
                "S not-handled T2", "R not-handled T2", "RVC handled T2"
            ])
        // Its own override comes first: handle+super reaches UIScrollView's implementation, which stops the touch.
        #expect(
            delivered(try tap(#", "handles": {"touchesBegan": "handle+super"}"#)) == ["S handled+super K20"])
    }

    @Test("K21 pagingEnabled settles the offset on the nearest page after touch-up, a change with rule K21")
    func K21_pagingSettles() throws {
        func swipe(to x: Double) throws -> Traced<TouchOutcome> {
            var s = try session(
                fixtureF([
                    v(
                        "S", 0, 0, 400, 400,
                        #""class": "UIScrollView", "contentSize": [1200, 400], "pagingEnabled": true"#,
                        children: [
                            v("C", 0, 0, 1200, 400, handlesAll)
                        ])
                ]))
            _ = try s.touches([("a", "began", 350, 200, 0), ("a", "moved", x, 200, 0.05)])
            return try s.touches([("a", "ended", x, 200, 0.1)])
        }
        let far = try swipe(to: 110)  // offset 240: page 1
        #expect(changes(far) == ["S.boundsOrigin=[400,0]"])
        #expect(
            far.trace.steps.contains {
                if case .change(let c) = $0 { c.rule == .k21 } else { false }
            })
        #expect(changes(try swipe(to: 200)) == ["S.boundsOrigin=[0,0]"])  // offset 150: back to page 0
    }
}
