/// A touch's deliveries are most of a tap's trace, and through the Codable stream they cost ≈ 190k instructions
/// a tap (issue 15's profile), so they are written by hand: the same members, in the same order and under the
/// same conditions as their `Codable` conformances (ByteEncodingTests compares the two): `encodeIfPresent`
/// writes null on the wire, `@OmitNil` and `if let … encode` leave the member out.
extension TouchDelivery {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "touch"); touch.write(to: &w)
        w.key(static: "phase"); w.string(phase.rawValue)
        w.key(static: "view"); w.string(orNull: view)
        w.key(static: "window"); w.string(orNull: window)
        if dropped {
            w.key(static: "message"); w.string(orNull: message)
            w.key(static: "reason"); w.string(orNull: reason?.rawValue)
            w.key(static: "dropped"); w.bool(true)
            w.endObject()
            return
        }
        w.key(static: "localPoint")
        if let localPoint { localPoint.write(to: &w) } else { w.null() }
        w.key(static: "message"); w.string(orNull: message)
        w.key(static: "visited"); w.strings(visited)
        w.key(static: "handledBy"); w.strings(handledBy)
        w.key(static: "controlEvents")
        w.beginArray()
        for event in controlEvents { w.string(event.rawValue) }
        w.endArray()
        w.key(static: "actions")
        w.beginArray()
        for action in actions { action.write(to: &w) }
        w.endArray()
        if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
        if let rule { w.key(static: "rule"); w.string(rule.rawValue) }
        if let hitView { w.key(static: "hitView"); w.string(hitView) }
        if !heldBy.isEmpty { w.key(static: "heldBy"); w.strings(heldBy) }
        if !gestures.isEmpty {
            w.key(static: "gestures")
            w.beginArray()
            for g in gestures { g.write(to: &w) }
            w.endArray()
        }
        if !gestureActions.isEmpty {
            w.key(static: "gestureActions")
            w.beginArray()
            for a in gestureActions { a.write(to: &w) }
            w.endArray()
        }
        if !gestureDeliveries.isEmpty {
            w.key(static: "gestureDeliveries")
            w.beginArray()
            for d in gestureDeliveries { d.write(to: &w) }
            w.endArray()
        }
        w.endObject()
    }
}

extension EventID {
    func write(to w: inout JSONWriter) {
        switch self {
        case .string(let s): w.string(s)
        case .integer(let n): w.number(Double(n))
        }
    }
}

extension ControlAction {
    /// `{action, event, target, performed, by}`, nil as null.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "action"); w.string(action)
        w.key(static: "event"); w.string(event.rawValue)
        w.key(static: "target"); w.string(orNull: target)
        w.key(static: "performed"); w.bool(performed)
        w.key(static: "by"); w.string(orNull: by)
        w.endObject()
    }
}

extension GestureTransition {
    /// `{recognizer, from, to, rule, reason?, by?}`.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "recognizer"); w.string(recognizer)
        w.key(static: "from"); w.string(from.rawValue)
        w.key(static: "to"); w.string(to.rawValue)
        w.key(static: "rule"); w.string(rule.rawValue)
        if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
        if let by { w.key(static: "by"); w.string(by) }
        w.endObject()
    }
}

extension GestureActionSent {
    /// `{recognizer, target, action, performed, reason?}`.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "recognizer"); w.string(recognizer)
        w.key(static: "target"); w.string(target)
        w.key(static: "action"); w.string(action)
        w.key(static: "performed"); w.bool(performed)
        if let reason { w.key(static: "reason"); w.string(reason.rawValue) }
        w.endObject()
    }
}
