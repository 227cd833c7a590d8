import ResponderJSON

/// Trace steps are most of a dispatch's trace, so they skip Codable and are written by hand: the same members in
/// the same order as `TraceStep.encode(to:)` (ByteEncodingTests compares the two over the demo world's
/// dispatches and hand-made steps of every kind). `encodeIfPresent` writes null; `if let … encode` leaves out.
/// The kinds a touch's trace is made of are written through a cursor into room made once (`JSONWriter.members`):
/// key by key, they would be most of writing a tap's trace. The rarer kinds are written key by key.
///
/// Kept for what it saves (callgrind, release, inside request processing, `responder-bench profile`): a tap on
/// the demo world costs 85.9k with its 21 steps written here and 345.3k with each step written by its
/// `Codable` conformance through `WireByteEncoder`'s general stream (a keyed container, a `CodingKey` and a
/// generic call per member).
extension TraceStep {
    public func write(to w: inout JSONWriter) { Self.write(self, texts: TraceTexts(), to: &w) }

    /// The step borrowed: its payload's strings are read where they are, none retained. A step the caller reads
    /// from memory it does not own (an array's element) is copied to be lent, as the compiler cannot tell that
    /// writing leaves that memory alone; a trace written once and dropped moves its steps out instead
    /// (`ByteSink.write(taking:to:)`). Each kind writes its own `step` member as a literal. The kinds a touch's
    /// trace is made of are one object written through a cursor, braces and all, their cases' texts read from
    /// `t`, read once for the whole trace.
    static func write(_ step: borrowing TraceStep, texts t: TraceTexts, to w: inout JSONWriter) {
        let m = JSONCursor.memberRoom
        switch step {
        case .deliver(let to, let message, let disposition, let rule, let reason, let tag):
            let room =
                8 * m + JSONCursor.room(for: to) + JSONCursor.room(for: message) + t.disposition.cases.longest
                + t.rule.cases.longest + t.deliverReason.roomOrNull + (tag?.room ?? 0)
            w.object(atMost: room) { c in
                c.raw("\"step\":\"deliver\",\"to\":"); c.string(to)
                c.raw(",\"message\":"); c.string(message)
                c.raw(",\"disposition\":"); c.string(disposition, in: t.disposition)
                c.raw(",\"rule\":"); c.string(rule, in: t.rule)
                if let reason { c.raw(",\"reason\":"); c.string(reason, in: t.deliverReason) }
                if let tag { c.write(tag) }
            }
            return
        case .controlEvent(let control, let event, let touch, let rule):
            let room =
                6 * m + JSONCursor.room(for: control) + t.controlEvent.cases.longest + t.rule.cases.longest
                + (touch?.room ?? 0)
            w.object(atMost: room) { c in
                c.raw("\"step\":\"controlEvent\",\"control\":"); c.string(control)
                c.raw(",\"event\":"); c.string(event, in: t.controlEvent)
                c.raw(",\"rule\":"); c.string(rule, in: t.rule)
                if let touch { c.raw(",\"touch\":"); c.write(touch) }
            }
            return
        case .action(let action, let target, let sender, let performed, let by, let rule, let reason):
            let room =
                9 * m + JSONCursor.room(for: action) + JSONCursor.room(for: target) + JSONCursor.room(for: sender)
                + JSONCursor.room(for: by) + t.rule.cases.longest + t.actionFailure.roomOrNull
            w.object(atMost: room) { c in
                c.raw("\"step\":\"action\",\"action\":"); c.string(action)
                c.raw(",\"target\":"); c.string(orNull: target)
                c.raw(",\"sender\":"); c.string(orNull: sender)
                c.raw(",\"performed\":"); c.bool(performed)
                c.raw(",\"by\":"); c.string(orNull: by)
                c.raw(",\"rule\":"); c.string(rule, in: t.rule)
                if let reason { c.raw(",\"reason\":"); c.string(reason, in: t.actionFailure) }
            }
            return
        case .next(let from, let to, let rule):
            w.object(
                atMost: 5 * m + JSONCursor.room(for: from) + JSONCursor.room(for: to) + t.rule.cases.longest
            ) { c in
                c.raw("\"step\":\"next\",\"from\":"); c.string(from)
                c.raw(",\"to\":"); c.string(orNull: to)
                c.raw(",\"rule\":"); c.string(rule, in: t.rule)
            }
            return
        case .observe(let recognizer, let view, let touch, let observes, let reason):
            let rule = Rule.g1
            let room =
                8 * m + JSONCursor.room(for: recognizer) + JSONCursor.room(for: view) + touch.room
                + t.gestureReason.roomOrNull + t.rule.cases.longest
            w.object(atMost: room) { c in
                c.raw("\"step\":\"observe\",\"recognizer\":"); c.string(recognizer)
                c.raw(",\"view\":"); c.string(view)
                c.raw(",\"touch\":"); c.write(touch)
                c.raw(",\"observes\":"); c.bool(observes)
                if let reason { c.raw(",\"reason\":"); c.string(reason, in: t.gestureReason) }
                c.raw(",\"rule\":"); c.string(rule, in: t.rule)
            }
            return
        case .gesture(let g):
            GestureTransition.writeObject(of: g, texts: t, to: &w, asStep: true)
            return
        case .hitTest(let visit, let touch):
            // `TraceStep.hitTestName`, as a literal, in the same piece as the visit.
            let tables = t.visit
            w.object(atMost: 2 * m + HitVisit.room(of: visit, tables: tables) + (touch?.room ?? 0)) { c in
                c.raw("\"step\":\"hitTest\",")
                HitVisit.write(visit, tables: tables, to: &c)
                if let touch { c.raw(",\"touch\":"); c.write(touch) }
            }
            return
        case .android(let s):
            s.write(to: &w)
            return
        default:
            break
        }
        w.beginObject()
        switch step {
        case .deliver, .controlEvent, .action, .next, .observe, .gesture, .hitTest, .android:
            break
        case .check(let id, let check, let value, let rule):
            w.members(static: #""step":"check""#)
            w.key(static: "id"); w.string(id)
            w.key(static: "check"); w.string(check)
            w.key(static: "value"); w.bool(value)
            w.key(static: "rule"); w.string(rule)
        case .firstResponder(let change, let rule):
            w.members(static: #""step":"firstResponder""#)
            w.key(static: "window"); w.string(change.window)
            w.key(static: "from"); w.string(orNull: change.from)
            w.key(static: "to"); w.string(orNull: change.to)
            w.key(static: "reason"); w.string(change.reason)
            w.key(static: "rule"); w.string(rule)
        case .discard(let message, let reason, let rule, let tag, let blockedBy, let view):
            w.members(static: #""step":"discard""#)
            w.key(static: "message"); w.string(message)
            w.key(static: "reason"); w.string(reason)
            w.key(static: "rule"); w.string(rule)
            tag?.write(to: &w)
            if let blockedBy { w.key(static: "blockedBy"); w.string(blockedBy) }
            if let view { w.key(static: "view"); w.string(view) }
        case .keyWindow(let from, let to):
            w.members(static: #""step":"keyWindow""#)
            w.key(static: "from"); w.string(orNull: from)
            w.key(static: "to"); w.string(orNull: to)
            w.key(static: "rule"); w.string(Rule.f4)
        case .gestureAction(let a):
            w.members(static: #""step":"gestureAction""#)
            w.key(static: "recognizer"); w.string(a.recognizer)
            w.key(static: "target"); w.string(a.target)
            w.key(static: "action"); w.string(a.action)
            w.key(static: "performed"); w.bool(a.performed)
            if let reason = a.reason { w.key(static: "reason"); w.string(reason) }
            w.key(static: "rule"); w.string(Rule.g3)
        case .gestureWait(let recognizer, let waitingFor):
            w.members(static: #""step":"gestureWait""#)
            w.key(static: "recognizer"); w.string(recognizer)
            w.key(static: "waitingFor"); w.strings(waitingFor)
            w.key(static: "rule"); w.string(Rule.g5)
        case .scrollAxis(let recognizer, let scrollView, let axes):
            w.members(static: #""step":"scrollAxis""#)
            w.key(static: "recognizer"); w.string(recognizer)
            w.key(static: "view"); w.string(scrollView)
            w.key(static: "axes"); w.strings(axes)
            w.key(static: "rule"); w.string(Rule.k19)
        case .held(let touch, let message, let by, let rule):
            w.members(static: #""step":"held""#)
            w.key(static: "touch"); touch.write(to: &w)
            w.key(static: "message"); w.string(message)
            w.key(static: "by"); w.strings(by)
            w.key(static: "rule"); w.string(rule)
        case .release(let touch, let message, let by, let rule):
            w.members(static: #""step":"release""#)
            w.key(static: "touch"); touch.write(to: &w)
            w.key(static: "message"); w.string(message)
            w.key(static: "by"); w.string(orNull: by)
            w.key(static: "rule"); w.string(rule)
        case .change(let change):
            w.members(static: #""step":"change""#)
            w.key(static: "id"); w.string(change.id)
            w.key(static: "field"); w.string(change.field)
            w.key(static: "from"); w.value(change.from)
            w.key(static: "to"); w.value(change.to)
            w.key(static: "rule"); w.string(change.rule)
        case .keyCommand(let k):
            w.members(static: #""step":"keyCommand""#)
            w.key(static: "id"); w.string(k.id)
            w.key(static: "input"); w.string(k.input)
            w.key(static: "modifierFlags")
            w.beginArray()
            for f in k.modifierFlags { w.string(f.rawValue) }
            w.endArray()
            w.key(static: "action"); w.string(k.action)
            w.key(static: "result"); w.string(k.result.rawValue)
            if let by = k.by { w.key(static: "by"); w.string(by) }
            if k.system { w.key(static: "system"); w.bool(true) }
            w.key(static: "press"); k.press.write(to: &w)
            w.key(static: "rule"); w.string(Rule.e5)
        }
        w.endObject()
    }
}

extension EventID {
    /// The most the id takes as JSON.
    var room: Int {
        switch self {
        case .string(let s): JSONCursor.room(for: s)
        case .integer: JSONCursor.numberRoom
        }
    }
}

extension EventTag {
    var room: Int {
        switch self {
        case .touch(let id), .press(let id): JSONCursor.memberRoom + id.room
        }
    }
}

extension JSONCursor {
    mutating func write(_ id: EventID) {
        switch id {
        case .string(let s): string(s)
        case .integer(let n): number(Double(n))
        }
    }

    /// A step's `touch` or `press` member, after others.
    mutating func write(_ tag: EventTag) {
        switch tag {
        case .touch(let id): raw(",\"touch\":"); write(id)
        case .press(let id): raw(",\"press\":"); write(id)
        }
    }
}

extension EventTag {
    /// `touch: <id>` or `press: <id>`, as the step's `tag` member.
    func write(to w: inout JSONWriter) {
        switch self {
        case .touch(let id): w.key(static: "touch"); id.write(to: &w)
        case .press(let id): w.key(static: "press"); id.write(to: &w)
        }
    }
}
