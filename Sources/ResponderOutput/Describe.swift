import ResponderJSON
import ResponderProtocol

/// Small readable renderings of reply fields shared by several commands.
package enum Describe {
    /// ` (seq 4)` or ` (seq 4…6)` from a `seqRange` of `[first, last]`; empty when no event was published.
    package static func seqRange(_ range: [Int]?) -> String {
        guard let range, range.count == 2 else { return "" }
        return range[0] == range[1] ? " (seq \(range[0]))" : " (seq \(range[0])…\(range[1]))"
    }

    /// A node id; `-` for none.
    package static func id(_ id: String?) -> String { id ?? "-" }

    /// `a → b → c`.
    package static func path(_ ids: [String]) -> String { ids.joined(separator: " → ") }

    /// A node id in an event body (tree ops are shown as they were sent): a string, or an object's `id`;
    /// `-` for null.
    package static func id(_ value: JSON?) -> String {
        guard let value, !value.isNull else { return "-" }
        if let s = value.stringValue { return s }
        if let id = value["id"]?.stringValue { return id }
        return Output.plain(value)
    }

    /// A touch or press id as the user typed it: `1`, `tap-1`.
    package static func id(_ event: EventID) -> String { Output.plain(event.wire) }

    /// `3`, or `?` when the reply did not say.
    package static func number(_ n: Int?) -> String { n.map(String.init) ?? "?" }
}
