import ResponderProtocol

/// One node of a session's responder world: its fields (`spec`, the wire's node object) and its place in the
/// tree. Structure lives here too, so the world is a flat table of nodes keyed by id: walks are loops over
/// ids, never recursion. Fields read straight through: `node.hidden` is `node.spec.hidden`.
@dynamicMemberLookup
public struct Node: Sendable, Equatable {
    public internal(set) var spec: NodeSpec
    public internal(set) var parent: String?
    public internal(set) var children: [String] = []
    /// The session revision of this node's last change (insert, move or field update).
    public internal(set) var revision = 0
    /// Distance from the root of its tree (the application, or a detached subtree's root).
    public internal(set) var depth = 0

    public init(id: String, kind: NodeKind) { spec = NodeSpec(id: id, kind: kind) }
    init(spec: NodeSpec) { self.spec = spec }

    public subscript<T>(dynamicMember keyPath: KeyPath<NodeSpec, T>) -> T { spec[keyPath: keyPath] }

    /// Whether this responder implements `message`, and how.
    public func handling(_ message: String) -> HandleMode? { spec.handles[message] }
}
