import ResponderJSON

/// The words the outline's search finds a node by besides its id and class: its display name and the
/// annotations that hold words (an imported dump's text, title, placeholder and accessibility strings).
enum OutlineWords {
    static let keys = ["displayName", "text", "title", "placeholder", "accessibilityIdentifier", "accessibilityLabel"]

    /// id → the words, space-separated; nodes without any are absent. Iterative: a tree may nest deeply.
    static func of(_ tree: JSON) -> [String: String] {
        var out: [String: String] = [:]
        var stack = [tree]
        while let node = stack.popLast() {
            if let id = node["id"]?.stringValue, let notes = node["annotations"] {
                let words = keys.compactMap { notes[$0]?.stringValue }.filter { !$0.isEmpty }
                if !words.isEmpty { out[id] = words.joined(separator: " ") }
            }
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
        return out
    }
}
