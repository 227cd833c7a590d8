import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderServer
import Testing

/// Replies and trace events are written straight to bytes. They must be byte for byte what the
/// tree encoder writes (`JSONCodec.encode(WireEncoder.encode(x))`), for every kind of outcome the core gives.
@Suite struct ByteEncodingTests {
    static let demoWorld = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Protocol/examples/demo-world.json").standardized.path

    func demo() throws -> SessionState {
        let file = try JSONCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.demoWorld))))
        var s = SessionState()
        _ = try s.load(tree: try NodeTree(wire: file["tree"]!, path: "tree"), limits: .default)
        return s
    }

    /// The byte encoder agrees with the tree encoder on `value`, and on its trace body when it is a dispatch.
    func same<T: Encodable>(_ value: T, _ what: String) {
        let tree = JSONCodec.encode(WireEncoder.encode(value))
        let bytes = WireByteEncoder.encode(value)
        #expect(
            bytes == tree,
            "\(what): \(String(decoding: bytes, as: UTF8.self))\n!= \(String(decoding: tree, as: UTF8.self))")
    }

    func sameTrace<O>(_ traced: Traced<O>, _ what: String) {
        same(traced, what)
        let tree = WireEncoder.encode(traced.traceBody)
        guard let body = WireByteEncoder.traceBody(traced) else {
            Issue.record("\(what): no trace body")
            return
        }
        #expect(body.bytes == JSONCodec.encode(tree), "\(what): trace body differs")
        #expect(Array(body.bytes[body.outcome]) == JSONCodec.encode(tree["outcome"]!), "\(what): outcome range")
        // Written in place after other text, its steps moved out (a touch's trace event, written in one piece):
        // the same bytes, and the focus changes gathered on the way are the trace's.
        var inPlace = traced
        var w = JSONWriter()
        w.beginObject()
        w.key(static: "before"); w.null()
        w.key(static: "trace")
        guard let written = WireByteEncoder.writeTraceBody(taking: &inPlace, to: &w) else {
            #expect(O.self != TouchOutcome.self, "\(what): a touch's trace body not written in place")
            return
        }
        let text = w.bytes
        #expect(Array(text[written.body]) == body.bytes, "\(what): trace body in place differs")
        #expect(Array(text[written.outcome]) == Array(body.bytes[body.outcome]), "\(what): outcome range in place")
        #expect(written.focus == traced.trace.focusChanges, "\(what): focus changes in place")
        if let touch = traced.outcome as? TouchOutcome {
            var members = JSONWriter()
            members.beginObject()
            WireByteEncoder.writeMembers(of: touch, to: &members)
            members.endObject()
            #expect(members.bytes == JSONCodec.encode(tree["outcome"]!), "\(what): outcome's members")
        }
    }

    @Test func queriesOverTheDemoWorld() throws {
        let s = try demo()
        for x in stride(from: -10.0, through: 400, by: 25) {
            for y in stride(from: -10.0, through: 850, by: 37) {
                sameTrace(s.hitTest(at: Point(x, y + 0.25)), "hitTest \(x),\(y)")
            }
        }
        for id in s.world.nodes.keys.sorted() {
            if let chain = try? s.responderChain(from: id) { sameTrace(chain, "chain \(id)") }
        }
        for action in ["buttonTapped:", "copy:", "paste:", "nothing:"] {
            sameTrace(try s.canPerformAction(action, sender: nil), "canPerform \(action)")
        }
    }

    /// The hitTest reply written without its trace (`hitTestReply`) is the bytes of the traced value, for hits,
    /// misses of every window (H1's discard), and the H6 overrides that change a visit (never, pass-through,
    /// both redirects) — an id that needs escaping included.
    @Test func hitTestReplyWithoutBuildingTheTrace() throws {
        func check(_ s: SessionState, _ p: Point, _ what: String) {
            let reply = s.hitTestReply(at: p)
            let traced = JSONCodec.encode(WireEncoder.encode(s.hitTest(at: p)))
            #expect(
                reply == traced,
                "\(what) \(p): \(String(decoding: reply, as: UTF8.self))\n!= \(String(decoding: traced, as: UTF8.self))"
            )
        }
        let demo = try demo()
        var misses = 0
        for x in stride(from: -10.0, through: 400, by: 25) {
            for y in stride(from: -10.0, through: 850, by: 37) {
                check(demo, Point(x, y + 0.25), "demo")
                if demo.hitTestOutcome(at: Point(x, y + 0.25)).view == nil { misses += 1 }
            }
        }
        #expect(misses > 0, "the sweep includes points no window answers")
        let overrides = try session(
            fixtureF([
                // Back-most: redirect when nil answers for every point that reaches it.
                v(
                    "Cell", 0, 400, 200, 80, #""hitTest": {"redirect": {"to": "Scroll", "when": "nil"}}"#,
                    children: [v("Scroll", 0, 0, 400, 80)]),
                v("Under", 0, 0, 400, 400),
                v(
                    "Overlay", 0, 0, 400, 300, #""hitTest": {"mode": "passThroughSelf"}"#,
                    children: [v("Chip", 10, 10, 50, 50)]),
                v(
                    #"Hidden\"One"#, 0, 0, 100, 100, #""hitTest": {"mode": "never"}"#,
                    children: [v("Child", 0, 0, 100, 100)]),
                v(
                    "Row", 0, 500, 400, 80, #""hitTest": {"redirect": {"to": "Inner", "when": "self"}}"#,
                    children: [v("Inner", 100, 0, 200, 80)])
            ]))
        for p in [
            Point(20, 20), Point(200, 200), Point(200, 350), Point(300, 440), Point(50, 440), Point(20, 540),
            Point(5000, 5000)
        ] {
            check(overrides, p, "overrides")
        }
        let reasons = Set(
            [Point(20, 20), Point(200, 200), Point(300, 440), Point(20, 540)].flatMap {
                overrides.hitTestOutcome(at: $0).visited.compactMap(\.reason)
            })
        #expect(reasons.isSuperset(of: [.never, .passThrough, .redirect]), "\(reasons)")
    }

    @Test func dispatchesThatChangeTheSession() throws {
        var s = try demo()
        var n = 0
        for x in stride(from: 5.0, through: 390, by: 55) {
            for y in stride(from: 5.0, through: 840, by: 45) {
                n += 1
                sameTrace(try s.tap(at: Point(x, y), client: "c"), "tap \(x),\(y)")
                // A drag with a long press in it: moves, the clock, gestures that begin and end.
                sameTrace(
                    try s.touch(
                        [TouchInput(touch: EventID.string("t\(n)"), phase: .began, point: Point(x, y))], client: "c"),
                    "began")
                sameTrace(try s.advanceClock(to: nil, by: 0.6), "clock")
                sameTrace(
                    try s.touch(
                        [TouchInput(touch: EventID.string("t\(n)"), phase: .moved, point: Point(x + 30, y + 2))],
                        client: "c"), "moved")
                sameTrace(
                    try s.touch(
                        [TouchInput(touch: EventID.string("t\(n)"), phase: .ended, point: Point(x + 30, y + 2))],
                        client: "c"), "ended")
            }
        }
        for id in s.world.nodes.keys.sorted() {
            if let b = try? s.become(id) { sameTrace(b, "become \(id)") }
            if let r = try? s.resign(id) { sameTrace(r, "resign \(id)") }
        }
        sameTrace(s.motion(.shake, phase: .began), "motion")
        sameTrace(s.remoteControl(.play), "remote")
        sameTrace(try s.press(EventID.string("p1"), key: "a", phase: .began, client: "c"), "press")
        sameTrace(try s.press(EventID.string("p1"), key: "a", phase: .ended, client: "c"), "press ended")
        sameTrace(try s.sendAction("buttonTapped:", target: nil, sender: "button"), "sendAction")
        sameTrace(try s.makeKey("window").outcome, "makeKey")
        same(Published(s.hitTest(at: Point(60, 150)), revision: 3, seq: 7, seqRange: [5, 7]), "published")
        same(Published(Empty(), seq: 7, seqRange: nil), "published empty")
    }

    /// Touch deliveries are written by hand: every optional member present and absent, gestures, actions, a
    /// delivery a recognizer released, integer touch ids, and a dropped one (its own short form).
    @Test func touchDeliveriesWithEveryMember() {
        var full = TouchDelivery(
            touch: EventID.integer(7), phase: .ended, view: "b", window: "w", localPoint: Point(1.5, -2),
            message: "touchesEnded")
        full.visited = ["b", "root"]
        full.handledBy = ["b"]
        full.controlEvents = [.touchUpInside, .primaryActionTriggered]
        full.actions = [
            ControlAction(action: "go:", event: .touchUpInside, target: nil, performed: true, by: "vc"),
            ControlAction(action: "x:", event: .primaryActionTriggered, target: "t", performed: false, by: nil)
        ]
        full.reason = .held
        full.rule = .t3
        full.hitView = "b"
        full.heldBy = ["b.tap"]
        full.gestures = [
            GestureTransition(recognizer: "b.tap", from: .possible, to: .recognized, rule: .g3),
            GestureTransition(
                recognizer: "b.pan", from: .possible, to: .failed, rule: .g5, reason: .movedTooFar, by: "b.tap")
        ]
        full.gestureActions = [
            GestureActionSent(recognizer: "b.tap", target: "vc", action: "tapped:", performed: true, reason: nil),
            GestureActionSent(
                recognizer: "b.tap", target: "x", action: "no:", performed: false, reason: .notImplemented)
        ]
        var released = TouchDelivery(touch: "t", phase: .began, view: "b", window: "w", message: "touchesBegan")
        released.handledBy = ["b"]
        full.gestureDeliveries = [released]
        var dropped = TouchDelivery(touch: "t", phase: .moved, view: "b", window: nil, message: nil)
        dropped.dropped = true
        dropped.reason = .viewLeftWindow
        let bare = TouchDelivery(touch: "", phase: .cancelled, view: nil, window: nil, message: nil)
        for (d, what) in [(full, "full"), (released, "released"), (dropped, "dropped"), (bare, "bare")] {
            same(d, what)
            same(TouchOutcome(deliveries: [d, d]), "outcome of \(what)")
        }
    }

    /// Every kind of trace step, written by hand, with its optional members present and absent.
    @Test func traceStepsOfEveryKind() {
        let steps: [TraceStep] = [
            .hitTest(
                HitVisit(id: "v", point: nil, result: .hit, reason: .redirect, rule: .h6, to: "w"),
                touch: EventID.integer(3)),
            .hitTest(HitVisit(id: "v", point: Point(1, 2)), touch: nil),
            .deliver(
                to: "v", message: "touchesBegan", disposition: .handled, rule: .n1, reason: .vetoed, tag: .touch("t")),
            .deliver(
                to: "v", message: "pressesBegan", disposition: .notHandled, rule: .n1, reason: nil,
                tag: .press(EventID.integer(2))),
            .deliver(to: "v", message: "motionBegan", disposition: .handled, rule: .n1, reason: nil, tag: nil),
            .controlEvent(control: "b", event: .touchDown, touch: "t"),
            .action(action: "go:", target: nil, sender: "b", performed: true, by: "vc", rule: .a1, reason: nil),
            .action(
                action: "go:", target: "x", sender: nil, performed: false, by: nil, rule: .a2, reason: .targetMissing),
            .check(id: "f", check: .canBecomeFirstResponder, value: true, rule: .f1),
            .firstResponder(FocusChange(window: "w", from: nil, to: "f", reason: .become), rule: .f1),
            .firstResponder(FocusChange(window: "w", from: "f", to: nil, reason: .resign), rule: .f3),
            .next(from: "v", to: "root", rule: .n2),
            .next(from: "app", to: nil, rule: .n3),
            .discard(
                message: "touchesEnded", reason: .noHit, rule: .h1, tag: .touch("t"), blockedBy: "b.tap", view: "v"),
            .discard(message: "shake", reason: .noFirstResponder, rule: .n1, tag: nil, blockedBy: nil, view: nil),
            .keyWindow(from: nil, to: "w"),
            .keyWindow(from: "w", to: nil),
            .observe(recognizer: "v.tap", view: "v", touch: "t", observes: false, reason: .disabled),
            .observe(recognizer: "v.tap", view: "v", touch: EventID.integer(1), observes: true, reason: nil),
            .gesture(
                GestureTransition(
                    recognizer: "v.tap", from: .possible, to: .failed, rule: .g4, reason: .timedOut, by: "v.pan")),
            .gesture(GestureTransition(recognizer: "v.tap", from: .possible, to: .recognized, rule: .g3)),
            .gestureAction(
                GestureActionSent(recognizer: "v.tap", target: "vc", action: "tapped:", performed: true, reason: nil)),
            .gestureAction(
                GestureActionSent(
                    recognizer: "v.tap", target: "vc", action: "no:", performed: false, reason: .notImplemented)),
            .gestureWait(recognizer: "v.tap", waitingFor: ["v.double", "v.pan"]),
            .held(touch: "t", message: "touchesBegan", by: ["v.tap"], rule: .g8),
            .release(touch: "t", message: "touchesBegan", by: nil, rule: .g9),
            .release(touch: EventID.integer(4), message: "touchesEnded", by: "v.tap", rule: .g8),
            .change(FieldChange(id: "s", field: "on", from: false, to: true, rule: .k3)),
            .keyCommand(
                KeyCommandStep(
                    id: "vc", command: KeyCommand(input: "k", modifierFlags: [.command, .shift], action: "find:"),
                    result: .matched, press: "p")),
            .keyCommand(
                KeyCommandStep(
                    id: "app", command: KeyCommand(input: "c", modifierFlags: [.command], action: "copy:"),
                    result: .performed, by: "tf", system: true, press: EventID.integer(2)))
        ]
        for (i, step) in steps.enumerated() { same(step, "step \(i) (\(step.name))") }
    }

    /// Strings and numbers: escapes only where needed, integers as String(Int64) would write them.
    @Test func scalars() {
        let texts = [
            "", "plain", "quote \" back \\ slash", "tab\tnew\nline\r", "\u{01}\u{1f}\u{7f}", "é ü 漢字 🙂",
            String(repeating: "ab\"", count: 100)
        ]
        for t in texts {
            same(["s": JSON.string(t)] as JSON, "string \(t.debugDescription)")
            var w = JSONWriter()
            w.string(t)
            #expect(w.bytes == Self.escapedOneByteAtATime(t), "string \(t.debugDescription)")
        }
        let numbers: [Double] = [
            0, -0.0, 1, -1, 9, 10, -10, 42, 1e15 - 1, -(1e15 - 1), 1e15, 1e16, 0.5, -0.25, 1.0 / 3, 123456.789,
            .greatestFiniteMagnitude, .nan, .infinity
        ]
        for n in numbers { same(JSON.array([.number(n)]), "number \(n)") }
        for _ in 0..<1000 {
            let i = Int64.random(in: -999_999_999_999_999...999_999_999_999_999)
            var w = JSONWriter()
            w.number(Double(i))
            #expect(w.bytes == Array(String(i).utf8))
        }
        for n in [0.5, -0.25, 1.0 / 3, 123456.789, 1e15, 1e300, -2.5e-8] {
            var w = JSONWriter()
            w.number(n)
            #expect(w.bytes == Array("\(n)".utf8))
        }
    }

    /// Escaping written one byte at a time, the plainest way: the reference the run-copying writer must match.
    static func escapedOneByteAtATime(_ s: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in s.utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
            default: out.append(b)
            }
        }
        return out + [0x22]
    }
}
