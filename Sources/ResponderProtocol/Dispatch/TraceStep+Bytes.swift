/// Trace steps are most of a dispatch's trace, so they skip Codable and are written by hand: the same members in
/// the same order as `TraceStep.encode(to:)` (ByteEncodingTests compares the two over the demo world's
/// dispatches and hand-made steps of every kind). `encodeIfPresent` writes null; `if let … encode` leaves out.
extension TraceStep {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "step"); w.string(name)
        switch self {
        case .hitTest(let visit, let touch):
            visit.writeMembers(to: &w)
            if let touch { w.key(static: "touch"); touch.write(to: &w) }
        case .deliver(let to, let message, let disposition, let rule, let reason, let tag):
            w.key(static: "to"); w.string(to)
            w.key(static: "message"); w.string(message)
            w.key(static: "disposition"); w.string(disposition.rawValue)
            w.key(static: "rule"); w.string(rule.rawValue)
            if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
            tag?.write(to: &w)
        case .controlEvent(let control, let event, let touch, let rule):
            w.key(static: "control"); w.string(control)
            w.key(static: "event"); w.string(event.rawValue)
            w.key(static: "rule"); w.string(rule.rawValue)
            w.key(static: "touch"); touch.write(to: &w)
        case .action(let action, let target, let sender, let performed, let by, let rule, let reason):
            w.key(static: "action"); w.string(action)
            w.key(static: "target"); w.string(orNull: target)
            w.key(static: "sender"); w.string(orNull: sender)
            w.key(static: "performed"); w.bool(performed)
            w.key(static: "by"); w.string(orNull: by)
            w.key(static: "rule"); w.string(rule.rawValue)
            if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
        case .check(let id, let check, let value, let rule):
            w.key(static: "id"); w.string(id)
            w.key(static: "check"); w.string(check.rawValue)
            w.key(static: "value"); w.bool(value)
            w.key(static: "rule"); w.string(rule.rawValue)
        case .firstResponder(let change, let rule):
            w.key(static: "window"); w.string(change.window)
            w.key(static: "from"); w.string(orNull: change.from)
            w.key(static: "to"); w.string(orNull: change.to)
            w.key(static: "reason"); w.string(change.reason.rawValue)
            w.key(static: "rule"); w.string(rule.rawValue)
        case .next(let from, let to, let rule):
            w.key(static: "from"); w.string(from)
            w.key(static: "to"); w.string(orNull: to)
            w.key(static: "rule"); w.string(rule.rawValue)
        case .discard(let message, let reason, let rule, let tag, let blockedBy, let view):
            w.key(static: "message"); w.string(message)
            w.key(static: "reason"); w.string(reason.rawValue)
            w.key(static: "rule"); w.string(rule.rawValue)
            tag?.write(to: &w)
            if let blockedBy { w.key(static: "blockedBy"); w.string(blockedBy) }
            if let view { w.key(static: "view"); w.string(view) }
        case .keyWindow(let from, let to):
            w.key(static: "from"); w.string(orNull: from)
            w.key(static: "to"); w.string(orNull: to)
            w.key(static: "rule"); w.string(Rule.f4.rawValue)
        case .observe(let recognizer, let view, let touch, let observes, let reason):
            w.key(static: "recognizer"); w.string(recognizer)
            w.key(static: "view"); w.string(view)
            w.key(static: "touch"); touch.write(to: &w)
            w.key(static: "observes"); w.bool(observes)
            if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
            w.key(static: "rule"); w.string(Rule.g1.rawValue)
        case .gesture(let t):
            w.key(static: "recognizer"); w.string(t.recognizer)
            w.key(static: "from"); w.string(t.from.rawValue)
            w.key(static: "to"); w.string(t.to.rawValue)
            w.key(static: "rule"); w.string(t.rule.rawValue)
            if let reason = t.reason { w.key(static: "reason"); w.string(reason.rawValue) }
            if let by = t.by { w.key(static: "by"); w.string(by) }
        case .gestureAction(let a):
            w.key(static: "recognizer"); w.string(a.recognizer)
            w.key(static: "target"); w.string(a.target)
            w.key(static: "action"); w.string(a.action)
            w.key(static: "performed"); w.bool(a.performed)
            if let reason = a.reason { w.key(static: "reason"); w.string(reason.rawValue) }
            w.key(static: "rule"); w.string(Rule.g3.rawValue)
        case .gestureWait(let recognizer, let waitingFor):
            w.key(static: "recognizer"); w.string(recognizer)
            w.key(static: "waitingFor"); w.strings(waitingFor)
            w.key(static: "rule"); w.string(Rule.g5.rawValue)
        case .held(let touch, let message, let by, let rule):
            w.key(static: "touch"); touch.write(to: &w)
            w.key(static: "message"); w.string(message)
            w.key(static: "by"); w.strings(by)
            w.key(static: "rule"); w.string(rule.rawValue)
        case .release(let touch, let message, let by, let rule):
            w.key(static: "touch"); touch.write(to: &w)
            w.key(static: "message"); w.string(message)
            w.key(static: "by"); w.string(orNull: by)
            w.key(static: "rule"); w.string(rule.rawValue)
        case .change(let change):
            w.key(static: "id"); w.string(change.id)
            w.key(static: "field"); w.string(change.field)
            w.key(static: "from"); w.value(change.from)
            w.key(static: "to"); w.value(change.to)
            w.key(static: "rule"); w.string(change.rule.rawValue)
        }
        w.endObject()
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
