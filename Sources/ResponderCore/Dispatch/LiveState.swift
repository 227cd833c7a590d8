import ResponderProtocol

/// A touch between began and ended/cancelled (T1). It stays bound to the view and window found at began.
struct LiveTouch: Sendable {
    /// The id as the client sent it (string or integer) and its canonical text, used as the key.
    var id: JSON
    var key: String
    var client: String
    /// The bound view; nil when the touch was delivered to no one (no hit, T4, T5).
    var view: String?
    var window: String?
    var phase: String
    /// The latest point in screen coordinates.
    var point: Point
    var tapCount: Int
    /// Why the touch is delivered to no one, with the rule.
    var undelivered: (reason: String, rule: String)?

    var json: JSON {
        ["touch": id, "client": .string(client), "view": JSON(view), "window": JSON(window), "phase": .string(phase)]
    }
}

/// A press between began and ended/cancelled, bound to the responder that got its began (E2).
struct LivePress: Sendable {
    var id: JSON
    var key: String
    var client: String
    var keyName: String?
    /// Nil when began was dropped (E3 drop profile, or no key window).
    var responder: String?
    var window: String?
    var phase: String

    var json: JSON {
        ["press": id, "client": .string(client), "key": JSON(keyName), "responder": JSON(responder), "window": JSON(window), "phase": .string(phase)]
    }
}

/// T3: a control tracking a touch, and whether the touch is currently inside (with slop).
struct ControlTrack: Sendable {
    var control: String
    var inside: Bool
}

/// Touch and press ids may be strings or integers; the canonical JSON text is the key.
func eventID(_ value: JSON?, field: String, _ r: ParamReader) throws(RPCError) -> (id: JSON, key: String) {
    guard let value, !value.isNull else { throw r.error(field, "is required") }
    switch value {
    case .string(let s) where !s.isEmpty: return (value, JSONCodec.encodeString(value))
    case .number where value.intValue != nil: return (value, JSONCodec.encodeString(value))
    default: throw r.error(field, "expected a non-empty string or an integer, got \(value.typeName)")
    }
}
