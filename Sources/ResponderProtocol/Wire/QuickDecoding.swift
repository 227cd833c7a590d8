/// A request read straight from plain params (`PlainParams`: the request's own text, no `JSON` tree), without
/// the `Decoder` machinery, which would be a large part of a light request such as `responder.first`.
/// `init?(quick:)` accepts only params the generic decoder reads the same way — known members, each once,
/// each of its type, no `null` — and answers nil for anything else, which `WireDecoder` then reads and, where
/// something is wrong, names the field. So the errors stay the generic decoder's alone.
///
/// Kept for what it saves, in the instruction guard's counts (debug build, inside request processing):
/// `responder.first` costs 76.5k read here and 125.2k through the params' `JSON` tree and `WireDecoder`, `hitTest`
/// 614.0k and 673.5k; in the release build, `responder.first` 6.1k and 19.9k, `hitTest` 18.3k and 34.6k,
/// `event.tap` 85.9k and 111.5k. `QuickDecodingTests` compares each reader with the general decoder.
public protocol QuickDecodable {
    init?(quick params: PlainParams)
}

/// `{session?, point, trace?}` (a hit test's or a plain tap's params), or nil when not plain.
private func sessionPointTrace(_ params: PlainParams) -> (session: String?, point: Point, trace: TraceDetail?)? {
    var session: String?, point: Point?, trace: TraceDetail?
    var seenTrace = false
    let plain = params.forEachMember { key, value in
        switch (key, value) {
        case ("session", .string(let s)) where session == nil: session = s
        // Two finite numbers, as `Point` reads them.
        case ("point", .pair(let x, let y)) where point == nil && x.isFinite && y.isFinite: point = Point(x, y)
        case ("trace", .string(let t)) where !seenTrace:
            guard let detail = TraceDetail(rawValue: t) else { return false }
            trace = detail
            seenTrace = true
        default: return false
        }
        return true
    }
    guard plain, let point else { return nil }
    return (session, point, trace)
}

extension FirstResponderRequest: QuickDecodable {
    public init?(quick params: PlainParams) {
        var session: String?, window: String?
        let plain = params.forEachMember { key, value in
            switch (key, value) {
            case ("session", .string(let s)) where session == nil: session = s
            case ("window", .string(let w)) where window == nil: window = w
            default: return false
            }
            return true
        }
        guard plain else { return nil }
        self.init(session: session, window: window)
    }
}

extension HitTestRequest: QuickDecodable {
    public init?(quick params: PlainParams) {
        guard let (session, point, trace) = sessionPointTrace(params) else { return nil }
        self.init(session: session, point: point, trace: trace)
    }
}

extension TapRequest: QuickDecodable {
    /// The common tap (`session`, `point`, `trace`); one with `tapCount`, `time` or `dryRun` is read generically.
    public init?(quick params: PlainParams) {
        guard let (session, point, trace) = sessionPointTrace(params) else { return nil }
        self.init(session: session, point: point, trace: trace)
    }
}
