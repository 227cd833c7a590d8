import ResponderJSON
import ResponderProtocol

/// How every text answer names a node: its id, and beside it the name a developer recognises it by — the
/// `displayName` annotation an import keeps (`0x7f8a5c514000 (UIButton "Sign in")`). A node without one is its
/// id alone, so worlds that were not imported read as they always have.
package struct NodeNames: Sendable {
    package private(set) var byID: [String: String]

    /// Ids alone: for answers that have no tree to read names from.
    package static let none = NodeNames(byID: [:])

    private init(byID: [String: String]) { self.byID = byID }

    /// The names of every node of `trees` (a `tree.get` tree, a snapshot's tree and its detached roots).
    package init(trees: [JSON]) {
        byID = [:]
        for tree in trees { add(tree) }
    }

    /// Adds the names in the subtree at `root` (iterative: an imported tree may nest deeply).
    package mutating func add(_ root: JSON) {
        var stack = [root]
        while let node = stack.popLast() {
            if let id = node["id"]?.stringValue, let name = NodeDisplayName.of(node) { byID[id] = name }
            stack.append(contentsOf: node["children"]?.arrayValue ?? [])
        }
    }

    /// `id (UIButton "Sign in")`, or the id alone.
    package func label(_ id: String) -> String { NodeDisplayName.label(id, name: byID[id]) }

    /// `-` for none.
    package func label(_ id: String?) -> String { id.map(label) ?? "-" }

    /// `a (…) → b (…) → c`.
    package func path(_ ids: [String]) -> String { ids.map(label).joined(separator: " → ") }

    /// A list of ids, `a (…), b`.
    package func list(_ ids: [String]) -> String { ids.map(label).joined(separator: ", ") }
}
