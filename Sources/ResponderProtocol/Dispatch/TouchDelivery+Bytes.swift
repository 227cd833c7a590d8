import ResponderJSON

/// A touch's deliveries are most of a tap's trace, and the Codable stream would be most of what writing a tap
/// costs, so they are written by hand: the same members, in the same order and under the
/// same conditions as their `Codable` conformances (ByteEncodingTests compares the two): `encodeIfPresent`
/// writes null on the wire, `@OmitNil` and `if let … encode` leave the member out.
///
/// Kept for what it saves (callgrind, release, inside request processing): a tap on the demo world costs 85.9k
/// with its outcome's two deliveries written here and 222.8k with the outcome written by `Codable` through
/// `WireByteEncoder`'s general stream.
extension TouchDelivery {
    /// The members every delivery has, its control actions and its optional scalars are written through a
    /// cursor (`JSONWriter.members`), in two pieces; the recognizers' nested objects after them key by key.
    func write(to w: inout JSONWriter) {
        withUnsafePointer(to: self) { Self.write($0, texts: TraceTexts(), to: &w) }
    }

    /// The delivery at `d`, read where it is (a delivery handed to a method beside the writer is copied first,
    /// a retain and a release for each of its strings and arrays), its nested entries likewise. Its cases'
    /// texts are read from `t`, read once for all of a trace's deliveries.
    static func write(_ d: UnsafePointer<TouchDelivery>, texts t: TraceTexts, to w: inout JSONWriter) {
        w.beginObject()
        let m = JSONCursor.memberRoom
        w.members(
            atMost: 4 * m + d.pointee.touch.room + t.phase.cases.longest
                + JSONCursor.room(for: d.pointee.view)
                + JSONCursor.room(for: d.pointee.window)
        ) { c in
            c.raw("\"touch\":"); c.write(d.pointee.touch)
            c.raw(",\"phase\":"); c.string(d.pointee.phase, in: t.phase)
            c.raw(",\"view\":"); c.string(orNull: d.pointee.view)
            c.raw(",\"window\":"); c.string(orNull: d.pointee.window)
        }
        if d.pointee.dropped {
            w.key(static: "message"); w.string(orNull: d.pointee.message)
            w.key(static: "reason"); w.string(orNull: d.pointee.reason)
            w.key(static: "dropped"); w.bool(true)
            w.endObject()
            return
        }
        var room =
            9 * m + JSONCursor.pointRoom + JSONCursor.room(for: d.pointee.message)
            + JSONCursor.room(for: d.pointee.visited)
            + JSONCursor.room(for: d.pointee.handledBy) + t.controlEvent.room(forArrayOf: d.pointee.controlEvents.count)
            + 2 + t.deliveryReason.roomOrNull + t.rule.roomOrNull
            + JSONCursor.room(for: d.pointee.hitView)
        d.pointee.actions.withUnsafeBufferPointer { a in
            for i in a.indices { room += ControlAction.room(of: a.baseAddress! + i, texts: t) }
        }
        w.members(atMost: room) { c in
            c.raw("\"localPoint\":"); c.point(d.pointee.localPoint)
            c.raw(",\"message\":"); c.string(orNull: d.pointee.message)
            c.raw(",\"visited\":"); c.strings(d.pointee.visited)
            c.raw(",\"handledBy\":"); c.strings(d.pointee.handledBy)
            c.raw(",\"controlEvents\":"); c.strings(d.pointee.controlEvents, in: t.controlEvent)
            c.raw(",\"actions\":[")
            d.pointee.actions.withUnsafeBufferPointer { a in
                for i in a.indices {
                    if i > 0 { c.raw(",") }
                    ControlAction.write(a.baseAddress! + i, texts: t, to: &c)
                }
            }
            c.raw("]")
            if let reason = d.pointee.reason { c.raw(",\"reason\":"); c.string(reason, in: t.deliveryReason) }
            if let rule = d.pointee.rule { c.raw(",\"rule\":"); c.string(rule, in: t.rule) }
            if let hitView = d.pointee.hitView { c.raw(",\"hitView\":"); c.string(hitView) }
        }
        if !d.pointee.heldBy.isEmpty { w.key(static: "heldBy"); w.strings(d.pointee.heldBy) }
        if !d.pointee.gestures.isEmpty {
            w.key(static: "gestures")
            w.beginArray()
            d.pointee.gestures.withUnsafeBufferPointer { g in
                for i in g.indices {
                    GestureTransition.writeObject(of: g.baseAddress! + i, texts: t, to: &w, asStep: false)
                }
            }
            w.endArray()
        }
        if !d.pointee.gestureActions.isEmpty {
            w.key(static: "gestureActions")
            w.beginArray()
            for a in d.pointee.gestureActions { a.write(to: &w) }
            w.endArray()
        }
        if !d.pointee.gestureDeliveries.isEmpty {
            w.key(static: "gestureDeliveries")
            w.beginArray()
            d.pointee.gestureDeliveries.withUnsafeBufferPointer { g in
                for i in g.indices { write(g.baseAddress! + i, texts: t, to: &w) }
            }
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
    /// The most `{action, event, target, performed, by}` (nil as null) at `a` takes, a comma after it included.
    static func room(of a: UnsafePointer<ControlAction>, texts t: TraceTexts) -> Int {
        5 * JSONCursor.memberRoom + 3 + JSONCursor.room(for: a.pointee.action) + t.controlEvent.roomOrNull
            + JSONCursor.room(for: a.pointee.target) + JSONCursor.room(for: a.pointee.by)
    }

    /// The object at `a`, braces and all, read where it is.
    static func write(_ a: UnsafePointer<ControlAction>, texts t: TraceTexts, to c: inout JSONCursor) {
        c.raw("{\"action\":"); c.string(a.pointee.action)
        if let event = a.pointee.event { c.raw(",\"event\":"); c.string(event, in: t.controlEvent) }
        c.raw(",\"target\":"); c.string(orNull: a.pointee.target)
        c.raw(",\"performed\":"); c.bool(a.pointee.performed)
        c.raw(",\"by\":"); c.string(orNull: a.pointee.by)
        c.raw("}")
    }
}

extension GestureTransition {
    /// `{recognizer, from, to, rule, reason?, by?}`.
    func write(to w: inout JSONWriter) {
        withUnsafePointer(to: self) { Self.writeObject(of: $0, texts: TraceTexts(), to: &w, asStep: false) }
    }

    /// The transition at `t`, read where it is, as one object written through a cursor, braces and all; as a
    /// trace step (12.4), with `step: "gesture"` first.
    static func writeObject(
        of g: UnsafePointer<GestureTransition>, texts: TraceTexts, to w: inout JSONWriter, asStep: Bool
    ) {
        // Member by member: `g.pointee` lent whole would be copied whole first.
        writeObject(
            recognizer: g.pointee.recognizer, from: g.pointee.from, to: g.pointee.to, rule: g.pointee.rule,
            reason: g.pointee.reason, by: g.pointee.by, texts: texts, to: &w, asStep: asStep)
    }

    /// The same of a transition borrowed (a trace step's).
    static func writeObject(
        of g: borrowing GestureTransition, texts: TraceTexts, to w: inout JSONWriter, asStep: Bool
    ) {
        writeObject(
            recognizer: g.recognizer, from: g.from, to: g.to, rule: g.rule, reason: g.reason, by: g.by, texts: texts,
            to: &w, asStep: asStep)
    }

    @inline(__always)
    private static func writeObject(
        recognizer: String, from: GestureState, to: GestureState, rule: Rule, reason: GestureReason?, by: String?,
        texts t: TraceTexts, to w: inout JSONWriter, asStep: Bool
    ) {
        let room =
            7 * JSONCursor.memberRoom + JSONCursor.room(for: recognizer) + 2 * t.gestureState.cases.longest
            + t.rule.cases.longest + t.gestureReason.roomOrNull + JSONCursor.room(for: by)
        w.object(atMost: room) { c in
            if asStep { c.raw("\"step\":\"gesture\",") }
            c.raw("\"recognizer\":"); c.string(recognizer)
            c.raw(",\"from\":"); c.string(from, in: t.gestureState)
            c.raw(",\"to\":"); c.string(to, in: t.gestureState)
            c.raw(",\"rule\":"); c.string(rule, in: t.rule)
            if let reason { c.raw(",\"reason\":"); c.string(reason, in: t.gestureReason) }
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
