import ResponderProtocol
import ResponderJSON

extension World {
    /// Writes node `id` with all its fields and its subtree as nested `children`, without recursion. Nodes are
    /// read in place: a copy of each (and of its parent's children per child) would be a large part of writing a world.
    /// `changedOnly`: each node's id, kind, revision and only the members reading it back needs
    /// (`NodeField.writeChangedMembers`), as a state snapshot keeps it.
    public func write(_ id: String, to w: inout JSONWriter, changedOnly: Bool = false) {
        guard let rootChildren = nodes.read(id, { node in
            Self.writeFields(node, to: &w, changedOnly: changedOnly)
            return node.pointee.children
        }) else {
            w.null()
            return
        }
        // Each frame: the children of a node being written, and the next one to write.
        var stack: [(children: [String], next: Int)] = [(rootChildren, 0)]
        while let top = stack.last {
            if top.next < top.children.count {
                stack[stack.count - 1].next += 1
                let children = nodes.read(top.children[top.next]) { node in
                    Self.writeFields(node, to: &w, changedOnly: changedOnly)
                    return node.pointee.children
                }!
                stack.append((children, 0))
            } else {
                w.endArray()
                w.endObject()
                stack.removeLast()
            }
        }
    }

    /// Opens the node object and writes everything but the children's contents (leaves `children` open).
    private static func writeFields(_ node: UnsafePointer<Node>, to w: inout JSONWriter, changedOnly: Bool = false) {
        w.beginObject()
        w.key(static: "id")
        w.string(node.pointee.spec.id)
        w.key(static: "kind")
        w.string(node.pointee.spec.kind.rawValue)
        w.key(static: "revision")
        w.number(Double(node.pointee.revision))
        // Annotations (1.5) and UIKit class fields (1.6) are written only when present, so output stays as it was.
        if changedOnly {
            NodeField.writeChangedMembers(of: node.pointee.spec, to: &w)
        } else {
            NodeField.writeMembers(of: node.pointee.spec, to: &w)
        }
        w.key(static: "children")
        w.beginArray()
    }

    /// Fewer bytes than `encoded()` and `encodedDetached()` write together, found without writing them: each
    /// node writes at least its kind's default node (id empty, revision 0) less what a node can save on that —
    /// a shorter class name, and a byte or two on each of the few fields whose default is not the shortest
    /// value (`false` → `true`, `"default"` → `"never"`, `null` → a one-letter id) — plus its id.
    public func minimumEncodedSize() -> Int {
        let minimum = Self.minimumWrittenSizes
        var size = 0
        nodes.forEach { size += minimum[$0.pointee.spec.kind.index] + $0.pointee.spec.id.utf8.count }
        return size
    }

    static func minimumWrittenSize(_ kind: NodeKind) -> Int { minimumWrittenSizes[kind.index] }

    private static let minimumWrittenSizes: [Int] = NodeKind.allCases.map { kind in
        var w = JSONWriter()
        withUnsafePointer(to: Node(id: "", kind: kind)) { writeFields($0, to: &w) }
        w.endArray()
        w.endObject()
        return max(0, w.count - kind.defaultClassName.utf8.count - 24)
    }

    /// The subtree at `id` as encoded JSON text.
    public func encoded(_ id: String = World.rootID) -> [UInt8] {
        // Room for the whole tree at once (≈ 450 bytes a plain view): growing by doubling copied a large world's
        // text several times over. Pages reserved and never written cost no memory.
        var w = JSONWriter(reservingCapacity: id == World.rootID ? 512 * nodes.count : 4096)
        write(id, to: &w)
        return w.takeBytes()
    }

    /// The detached subtrees as an encoded JSON array.
    public func encodedDetached(changedOnly: Bool = false) -> [UInt8] {
        var w = JSONWriter()
        w.beginArray()
        for root in detachedRoots { write(root, to: &w, changedOnly: changedOnly) }
        w.endArray()
        return w.takeBytes()
    }

    /// The tree as a state snapshot keeps it: each node's members that reading it back needs (a plain view:
    /// its id, kind, revision and frame), where `encoded()` writes every member.
    public func encodedChanges() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 96 * nodes.count + 256)
        write(World.rootID, to: &w, changedOnly: true)
        return w.takeBytes()
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
