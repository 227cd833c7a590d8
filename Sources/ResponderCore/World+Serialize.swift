import ResponderProtocol

extension World {
    /// Writes node `id` with all its fields and its subtree as nested `children`, without recursion.
    public func write(_ id: String, to w: inout JSONWriter) {
        guard nodes[id] != nil else {
            w.null()
            return
        }
        // Each frame: a node whose children are being written, and the next child to write.
        var stack: [(id: String, next: Int)] = []
        writeFields(id, to: &w)
        stack.append((id, 0))
        while let top = stack.last {
            let children = nodes[top.id]!.children
            if top.next < children.count {
                stack[stack.count - 1].next += 1
                let child = children[top.next]
                writeFields(child, to: &w)
                stack.append((child, 0))
            } else {
                w.endArray()
                w.endObject()
                stack.removeLast()
            }
        }
    }

    /// Opens the node object and writes everything but the children's contents (leaves `children` open).
    private func writeFields(_ id: String, to w: inout JSONWriter) {
        let node = nodes[id]!
        w.beginObject()
        w.key("id")
        w.string(node.id)
        w.key("kind")
        w.string(node.kind.rawValue)
        w.key("revision")
        w.number(Double(node.revision))
        // Annotations (1.5) and UIKit class fields (1.6) are written only when present, so output stays as it was.
        for field in NodeField.all(for: node.kind) where field.isWritten(for: node.spec) {
            w.key(field.name)
            field.write(node.spec, to: &w)
        }
        w.key("children")
        w.beginArray()
    }

    /// The subtree at `id` as encoded JSON text.
    public func encoded(_ id: String = World.rootID) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 512 * min(nodes.count, 10_000))
        write(id, to: &w)
        return w.bytes
    }

    /// The detached subtrees as an encoded JSON array.
    public func encodedDetached() -> [UInt8] {
        var w = JSONWriter()
        w.beginArray()
        for root in detachedRoots { write(root, to: &w) }
        w.endArray()
        return w.bytes
    }
}
