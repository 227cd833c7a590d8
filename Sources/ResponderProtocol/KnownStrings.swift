import ResponderJSON

/// The short strings requests repeat — the envelope's keys, method names, node fields and kinds, touch phases,
/// a request's common members — made once. The parser takes a string from here when its bytes are one of
/// them, instead of validating and copying them again: a small request is mostly such strings, and a world
/// of a million nodes has four million keys.
///
/// Read-only once built, so any thread may look up.
package enum KnownStrings {
    package static let table = JSONStringTable(words)

    static var words: [String] {
        [
            "jsonrpc", "id", "method", "params", "result", "error", "2.0",
            "session", "point", "points", "trace", "touches", "touch", "phase", "tapCount", "time", "window", "action",
            "target",
            "sender", "dryRun", "owner", "tree", "ops", "op", "parent", "index", "node", "fields", "detached",
            "subtype", "press",
            "key", "to", "by", "since", "limit", "none", "full", "x", "y", "children", "kind"
        ]
            + MethodRegistry.all.map { $0.method }
            + NodeField.all.map(\.name)
            + NodeKind.allCases.map(\.rawValue)
            + TouchPhase.allCases.map(\.rawValue)
    }
}
