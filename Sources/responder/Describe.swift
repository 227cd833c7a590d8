import ResponderProtocol

/// Small readable renderings of reply fields shared by several commands.
enum Describe {
    /// ` (seq 4)` or ` (seq 4…6)` from a `seqRange` of `[first, last]`; empty when no event was published.
    static func seqRange(_ range: JSON?) -> String {
        guard let a = range?.arrayValue, a.count == 2, let first = a[0].intValue, let last = a[1].intValue else { return "" }
        return first == last ? " (seq \(first))" : " (seq \(first)…\(last))"
    }

    /// A node id from a string, or from an object's `id`; `-` for null.
    static func id(_ value: JSON?) -> String {
        guard let value, !value.isNull else { return "-" }
        if let s = value.stringValue { return s }
        if let id = value["id"]?.stringValue { return id }
        return Output.plain(value)
    }

    /// `a → b → c`.
    static func path(_ values: [JSON]) -> String { values.map { id($0) }.joined(separator: " → ") }
}
