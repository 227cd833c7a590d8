import ResponderJSON

/// A tree of nodes that can be read in place: the engine's world. Its text, the node objects of 8.5 with their
/// subtrees as nested `children`, is written here, so that the model that holds the nodes writes no bytes.
public protocol NodeTreeSource {
    /// Node `id`'s handle, a number the source gives its meaning (where the node is kept); nil when there is no
    /// `id`. The text is written walking from each node to its children's handles, not looking each child up by
    /// its id (a million lookups, each a likely cache miss in a large world). A plain number, not an associated
    /// type: the walk, called from other modules, would run unspecialized.
    func handle(of id: String) -> Int32?
    /// `body` run on the node's fields and revision where they are stored, and its children's handles in order.
    func withNode<R>(_ node: Int32, _ body: (_ spec: NodeSpec, _ revision: Int, _ children: [Int32]) -> R) -> R
    /// `body` run on every node's kind and id, in no particular order (what a bound on the text needs: a node's
    /// whole spec handed to `body` would be a copy of it, for each node of the world).
    func forEachNode(_ body: (_ kind: NodeKind, _ id: String) -> Void)
    /// The roots of the subtrees outside the application's tree, in order.
    var detachedRootIDs: [String] { get }
    var nodeCount: Int { get }
    static var rootNodeID: String { get }
}

extension NodeTreeSource {
    /// Writes node `id` with all its fields and its subtree as nested `children`, without recursion. Nodes are
    /// read in place: a copy of each (and of its parent's children per child) would be a large part of writing a world.
    /// `changedOnly`: each node's id, kind, revision and only the members reading it back needs
    /// (`NodeField.writeChangedMembers`), as a state snapshot keeps it.
    public func write(_ id: String, to w: inout JSONWriter, changedOnly: Bool = false) {
        guard let root = handle(of: id) else {
            w.null()
            return
        }
        let rootChildren = withNode(root) { spec, revision, children in
            NodeTreeText.writeFields(spec, revision: revision, to: &w, changedOnly: changedOnly)
            return children
        }
        // Each frame: the children of a node being written, and the next one to write.
        var stack: [(children: [Int32], next: Int)] = [(rootChildren, 0)]
        while let top = stack.last {
            if top.next < top.children.count {
                stack[stack.count - 1].next += 1
                let children = withNode(top.children[top.next]) { spec, revision, children in
                    NodeTreeText.writeFields(spec, revision: revision, to: &w, changedOnly: changedOnly)
                    return children
                }
                stack.append((children, 0))
            } else {
                w.endArray()
                w.endObject()
                stack.removeLast()
            }
        }
    }

    /// Fewer bytes than `encoded()` and `encodedDetached()` write together, found without writing them: each
    /// node writes at least its kind's default node (id empty, revision 0) less what a node can save on that —
    /// a shorter class name, and a byte or two on each of the few fields whose default is not the shortest
    /// value (`false` → `true`, `"default"` → `"never"`, `null` → a one-letter id) — plus its id.
    public func minimumEncodedSize() -> Int {
        let minimum = NodeTreeText.minimumWrittenSizes
        var size = 0
        forEachNode { kind, id in size += minimum[kind.index] + id.utf8.count }
        return size
    }

    /// The subtree at `id` as encoded JSON text.
    public func encoded(_ id: String = Self.rootNodeID) -> [UInt8] {
        // Room for the whole tree at once (≈ 450 bytes a plain view): growing by doubling would copy a large
        // world's text several times over. Pages reserved and never written cost no memory.
        var w = JSONWriter(reservingCapacity: id == Self.rootNodeID ? 512 * nodeCount : 4096)
        write(id, to: &w)
        return w.takeBytes()
    }

    /// The detached subtrees as an encoded JSON array.
    public func encodedDetached(changedOnly: Bool = false) -> [UInt8] {
        var w = JSONWriter()
        w.beginArray()
        for root in detachedRootIDs { write(root, to: &w, changedOnly: changedOnly) }
        w.endArray()
        return w.takeBytes()
    }

    /// The tree as a state snapshot keeps it: each node's members that reading it back needs (a plain view:
    /// its id, kind, revision and frame), where `encoded()` writes every member.
    public func encodedChanges() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 96 * nodeCount + 256)
        write(Self.rootNodeID, to: &w, changedOnly: true)
        return w.takeBytes()
    }
}

/// The text of one node object.
public enum NodeTreeText {
    /// Opens the node object and writes everything but the children's contents (leaves `children` open).
    static func writeFields(_ spec: NodeSpec, revision: Int, to w: inout JSONWriter, changedOnly: Bool = false) {
        w.beginObject()
        w.key(static: "id")
        w.string(spec.id)
        w.key(static: "kind")
        w.string(spec.kind.rawValue)
        w.key(static: "revision")
        w.number(Double(revision))
        // Annotations and UIKit class fields are written only when present.
        if changedOnly {
            NodeField.writeChangedMembers(of: spec, to: &w)
        } else {
            NodeField.writeMembers(of: spec, to: &w)
        }
        w.key(static: "children")
        w.beginArray()
    }

    /// The fewest bytes a node of `kind` writes, its id aside (`NodeTreeSource.minimumEncodedSize`).
    public static func minimumWrittenSize(_ kind: NodeKind) -> Int { minimumWrittenSizes[kind.index] }

    static let minimumWrittenSizes: [Int] = NodeKind.allCases.map { kind in
        var w = JSONWriter()
        writeFields(NodeSpec(id: "", kind: kind), revision: 0, to: &w)
        w.endArray()
        w.endObject()
        return max(0, w.count - kind.defaultClassName.utf8.count - 24)
    }
}

extension NodeKind {
    /// Position in `allCases`, for tables indexed by kind.
    var index: Int {
        switch self {
        case .application: return 0
        case .appDelegate: return 1
        case .window: return 2
        case .viewController: return 3
        case .view: return 4
        case .control: return 5
        case .textField: return 6
        case .textView: return 7
        }
    }
}
