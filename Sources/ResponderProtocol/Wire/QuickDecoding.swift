/// A request read straight from plain params, without the `Decoder` machinery: a third of a light request
/// (`responder.first`) was that machinery (issue 15). `init?(quick:)` accepts only params the generic decoder
/// reads the same way — known members, each once, each of its type, no `null` — and answers nil for anything
/// else, which `WireDecoder` then reads and, where something is wrong, names the field. So the errors stay the
/// generic decoder's alone.
public protocol QuickDecodable {
    init?(quick params: JSON)
}

/// Reading plain params for `QuickDecodable`.
enum QuickParams {
    /// The members of `params` when it is an object whose keys are all `allowed`, each once.
    static func members(_ params: JSON, _ allowed: [String]) -> [(key: String, value: JSON)]? {
        guard let members = params.objectMembers else { return nil }
        for (i, m) in members.enumerated() {
            guard allowed.contains(m.key) else { return nil }
            for j in 0..<i where members[j].key == m.key { return nil }
        }
        return members
    }

    /// A member's value, nil when absent.
    static func value(_ members: [(key: String, value: JSON)], _ key: String) -> JSON? {
        members.first { $0.key == key }?.value
    }

    /// An optional string member: `.some(nil)` when absent, the string, or nil when not plain (null, another type).
    static func optionalString(_ value: JSON?) -> String?? {
        guard let value else { return .some(nil) }
        return value.stringValue.map { .some($0) }
    }

    /// `[x, y]` with two finite numbers (as `Point` reads it), or nil.
    static func point(_ value: JSON?) -> Point? {
        guard let a = value?.arrayValue, a.count == 2, let x = a[0].doubleValue, let y = a[1].doubleValue, x.isFinite, y.isFinite else { return nil }
        return Point(x, y)
    }

    /// An optional `trace` member: `.some(nil)` when absent, its value, or nil when not plain.
    static func trace(_ value: JSON?) -> TraceDetail?? {
        guard let value else { return .some(nil) }
        return value.stringValue.flatMap(TraceDetail.init(rawValue:)).map { .some($0) }
    }

    /// `{session?, point, trace?}` (a hit test's or a plain tap's params), or nil when not plain.
    static func sessionPointTrace(_ params: JSON) -> (session: String?, point: Point, trace: TraceDetail?)? {
        guard let m = members(params, ["session", "point", "trace"]),
              let session = optionalString(value(m, "session")),
              let point = point(value(m, "point")),
              let trace = trace(value(m, "trace")) else { return nil }
        return (session, point, trace)
    }
}

extension FirstResponderRequest: QuickDecodable {
    public init?(quick params: JSON) {
        guard let m = QuickParams.members(params, ["session", "window"]),
              let session = QuickParams.optionalString(QuickParams.value(m, "session")),
              let window = QuickParams.optionalString(QuickParams.value(m, "window")) else { return nil }
        self.init(session: session, window: window)
    }
}

extension HitTestRequest: QuickDecodable {
    public init?(quick params: JSON) {
        guard let (session, point, trace) = QuickParams.sessionPointTrace(params) else { return nil }
        self.init(session: session, point: point, trace: trace)
    }
}

extension TapRequest: QuickDecodable {
    /// The common tap (`session`, `point`, `trace`); one with `tapCount`, `time` or `dryRun` is read generically.
    public init?(quick params: JSON) {
        guard let (session, point, trace) = QuickParams.sessionPointTrace(params) else { return nil }
        self.init(session: session, point: point, trace: trace)
    }
}
