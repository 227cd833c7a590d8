/// A touch's deliveries are most of a tap's trace, and through the Codable stream they cost ≈ 190k instructions
/// a tap (issue 15's profile), so they are written by hand: the same members, in the same order and under the
/// same conditions as their `Codable` conformances (ByteEncodingTests compares the two): `encodeIfPresent`
/// writes null on the wire, `@OmitNil` and `if let … encode` leave the member out.
extension TouchDelivery {
    /// The members every delivery has are written in one piece through a cursor (`JSONWriter.members`), the
    /// optional ones and the nested objects after them key by key.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        let m = JSONCursor.memberRoom
        w.members(atMost: 4 * m + touch.room + JSONCursor.room(for: phase) + JSONCursor.room(for: view) + JSONCursor.room(for: window)) { c in
            c.raw("\"touch\":"); c.write(touch)
            c.raw(",\"phase\":"); c.string(phase)
            c.raw(",\"view\":"); c.string(orNull: view)
            c.raw(",\"window\":"); c.string(orNull: window)
        }
        if dropped {
            w.key(static: "message"); w.string(orNull: message)
            w.key(static: "reason"); w.string(orNull: reason)
            w.key(static: "dropped"); w.bool(true)
            w.endObject()
            return
        }
        let events = controlEvents.map(\.rawValue)
        let room = 5 * m + JSONCursor.pointRoom + JSONCursor.room(for: message) + JSONCursor.room(for: visited)
            + JSONCursor.room(for: handledBy) + JSONCursor.room(for: events)
        w.members(atMost: room) { c in
            c.raw("\"localPoint\":"); c.point(localPoint)
            c.raw(",\"message\":"); c.string(orNull: message)
            c.raw(",\"visited\":"); c.strings(visited)
            c.raw(",\"handledBy\":"); c.strings(handledBy)
            c.raw(",\"controlEvents\":"); c.strings(events)
        }
        w.key(static: "actions")
        w.beginArray()
        for action in actions { action.write(to: &w) }
        w.endArray()
        if let reason { w.key(static: "reason"); w.string(reason) }
        if let rule { w.key(static: "rule"); w.string(rule) }
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
        w.key(static: "event"); w.string(event)
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
        writeMembers(to: &w, asStep: false)
        w.endObject()
    }

    /// The members in one piece through a cursor; as a trace step (12.4), after `step: "gesture"`.
    func writeMembers(to w: inout JSONWriter, asStep: Bool) {
        let room = 7 * JSONCursor.memberRoom + JSONCursor.room(for: recognizer) + JSONCursor.room(for: from) + JSONCursor.room(for: to)
            + JSONCursor.room(for: rule) + JSONCursor.room(for: reason) + JSONCursor.room(for: by)
        w.members(atMost: room) { c in
            if asStep { c.raw("\"step\":\"gesture\",") }
            c.raw("\"recognizer\":"); c.string(recognizer)
            c.raw(",\"from\":"); c.string(from)
            c.raw(",\"to\":"); c.string(to)
            c.raw(",\"rule\":"); c.string(rule)
            if let reason { c.raw(",\"reason\":"); c.string(reason) }
            if let by { c.raw(",\"by\":"); c.string(by) }
        }
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
        if let reason { w.key(static: "reason"); w.string(reason) }
        w.endObject()
    }
}
