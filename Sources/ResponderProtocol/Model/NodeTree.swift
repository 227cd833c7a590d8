import ResponderJSON

/// A node object with its `children`, read into a flat list (parents before children, breadth first) so a tree
/// of any depth is read, held and freed without recursion. Each entry remembers where it was in the document,
/// so errors found later (a duplicate id, a misplaced kind) still name the field the client wrote.
public struct NodeTree: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var spec: NodeSpec
        /// Index of the parent entry; nil for the root.
        public var parent: Int?
        /// Position among the parent's children.
        public var childIndex: Int
    }

    public private(set) var entries: [Entry]
    /// Where the root is in the request ("tree", "ops[2].node", "detached[0]").
    public let path: String

    public static let maxIDLength = 256

    public var root: NodeSpec { entries[0].spec }

    /// The field path prefix of entry `index`, e.g. "tree.children[1].children[0]." (see `childPrefix`).
    public func path(of index: Int) -> String {
        var chain: [Int] = []
        var current: Int? = index
        while let c = current {
            chain.append(c)
            current = entries[c].parent
        }
        var prefix = path + "."
        for c in chain.reversed().dropFirst() {
            prefix = Self.childPrefix(
                prefix, parentID: entries[entries[c].parent!].spec.id, index: entries[c].childIndex)
        }
        return prefix
    }

    /// The path prefix of child `index` of a node whose prefix is `parentPrefix`: the way down while it is
    /// short, restarting at the parent's id once it is long.
    static func childPrefix(_ parentPrefix: String, parentID: String, index: Int) -> String {
        (parentPrefix.utf8.count < 160 ? parentPrefix : "…\(parentID).") + "children[\(index)]."
    }

    public init(root: NodeSpec, path: String) {
        self.entries = [Entry(spec: root, parent: nil, childIndex: 0)]
        self.path = path
    }

    /// Entries already in order (`PlainTree`).
    init(entries: [Entry], path: String) {
        self.entries = entries
        self.path = path
    }

    /// Reads one node object and everything under it; errors are INVALID_NODE naming the field and the node.
    /// Each node is read without its field path ("tree.children[3]…"): building that string for every node of a
    /// large tree costs more than reading it. A node that fails is read again with its path, so the error
    /// still names the field exactly.
    public init(document: JSON, path: String) throws(RPCError) {
        self.path = path
        entries = []
        var queue: [(json: JSON, parent: Int?, childIndex: Int)] = [(document, nil, 0)]
        var head = 0
        while head < queue.count {
            let item = queue[head]
            // Free each node's JSON as it is read so a huge document is not held twice.
            queue[head].json = .null
            head += 1
            let spec: NodeSpec, children: [JSON]
            do throws(RPCError) { (spec, children) = try Self.read(item.json, path: "") } catch {
                let prefix =
                    item.parent.map {
                        Self.childPrefix(self.path(of: $0), parentID: entries[$0].spec.id, index: item.childIndex)
                    } ?? path + "."
                _ = try Self.read(item.json, path: prefix)
                throw error  // not reached: reading is deterministic, so the second read throws
            }
            let index = entries.count
            entries.append(Entry(spec: spec, parent: item.parent, childIndex: item.childIndex))
            for (i, child) in children.enumerated() { queue.append((child, index, i)) }
            if head > 4096, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
        }
    }

    static func invalid(_ message: String, field: String, id: String? = nil) -> RPCError {
        var details: [(key: String, value: JSON)] = [("field", .string(field))]
        if let id { details.append(("id", .string(id))) }
        return RPCError(.invalidNode, message, details)
    }

    /// Reads one node object (without its children's contents).
    static func read(_ json: JSON, path: String) throws(RPCError) -> (NodeSpec, [JSON]) {
        var r = try ParamReader(json, path: path, errorName: .invalidNode)
        // Members are looked up directly; the reader (which records every key it is asked for) only words the
        // error when one has the wrong type. The last of duplicate keys wins, as with the reader.
        func member(_ key: String) -> JSON? { r.members.last(where: { $0.key == key })?.value }
        guard let id = member("id")?.stringValue else {
            _ = try r.string("id")
            throw invalid("\(path)id is required", field: path + "id")
        }
        guard !id.isEmpty, id.utf8.count <= maxIDLength else {
            throw invalid("\(path)id must be 1…\(maxIDLength) bytes", field: path + "id")
        }
        guard let kindName = member("kind")?.stringValue else {
            _ = try r.string("kind")
            throw invalid("\(path)kind is required", field: path + "kind", id: id)
        }
        guard let kind = NodeKind(rawValue: kindName) else {
            let all = NodeKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid(
                "\(path)kind: unknown kind \"\(kindName)\" (expected one of \(all))", field: path + "kind", id: id)
        }
        var node = NodeSpec(id: id, kind: kind)
        // `revision` is read-only: accepted so tree.get output loads back, then reassigned.
        let children: [JSON]
        if let list = member("children"), !list.isNull {
            guard let elements = list.arrayValue else {
                do throws(RPCError) { _ = try r.array("children") } catch { throw error.with("id", .string(id)) }
                throw invalid(
                    "\(path)children: expected an array, got \(list.typeName)", field: path + "children", id: id)
            }
            children = elements
        } else {
            children = []
        }
        // Every other member is a field, read here or refused: none is left for `finish` to name, so the reader
        // is not told of each (a set insertion per field of every node of a large load).
        for member in r.members {
            // Nearly every node of a large tree has a frame: a plain one (four finite numbers, a size not
            // negative) is set directly; anything else is read by its field below, which words the error.
            if member.key == "frame", kind.isView, let frame = Self.plainFrame(member.value) {
                node.frame = frame
                continue
            }
            guard !NodeField.isStructural(member.key) else { continue }
            guard let field = NodeField.named(member.key) else {
                throw invalid(
                    "unknown field \(path)\(member.key) on \(kind.rawValue) \"\(id)\"", field: path + member.key, id: id
                )
            }
            guard field.applies(to: kind) else {
                throw invalid(
                    "field \(path)\(member.key) does not apply to a \(kind.rawValue)", field: path + member.key, id: id)
            }
            do throws(RPCError) { try field.read(member.value, into: &node, path: path) } catch {
                throw error.detail("id") == nil ? error.with("id", .string(id)) : error
            }
        }
        if let (field, message) = node.classFieldError() {
            throw invalid("\(path)\(field): \(message)", field: path + field, id: id)
        }
        return (node, children)
    }

    /// `[x, y, width, height]` as the frame field reads it when nothing is wrong with it; nil otherwise.
    static func plainFrame(_ value: JSON) -> Rect? {
        guard let a = value.arrayValue, a.count == 4,
            let x = a[0].doubleValue, let y = a[1].doubleValue, let w = a[2].doubleValue, let h = a[3].doubleValue
        else { return nil }
        return plainFrame(x: x, y: y, width: w, height: h)
    }

    /// Four numbers as a frame when nothing is wrong with them: finite, the size not negative.
    static func plainFrame(x: Double, y: Double, width w: Double, height h: Double) -> Rect? {
        guard x.isFinite, y.isFinite, w.isFinite, h.isFinite, w >= 0, h >= 0 else { return nil }
        return Rect(x, y, w, h)
    }

    /// Writes the tree back as a nested node object with only the fields that differ from the kind's defaults
    /// (what a client would have written), iteratively.
    public func write(to w: inout JSONWriter) {
        var children: [[Int]] = Array(repeating: [], count: entries.count)
        for (i, e) in entries.enumerated() { if let p = e.parent { children[p].append(i) } }
        var stack: [(index: Int, next: Int)] = []
        func open(_ i: Int, _ w: inout JSONWriter) {
            let spec = entries[i].spec
            let fresh = NodeSpec(id: spec.id, kind: spec.kind)
            w.beginObject()
            w.key("id"); w.string(spec.id)
            w.key("kind"); w.string(spec.kind.rawValue)
            for field in NodeField.all(for: spec.kind)
            where field.isWritten(for: spec) && !field.writesAlike(spec, fresh) {
                w.key(field.name)
                field.write(spec, to: &w)
            }
            w.key("children")
            w.beginArray()
        }
        open(0, &w)
        stack.append((0, 0))
        while let top = stack.last {
            if top.next < children[top.index].count {
                stack[stack.count - 1].next += 1
                let child = children[top.index][top.next]
                open(child, &w)
                stack.append((child, 0))
            } else {
                w.endArray()
                w.endObject()
                stack.removeLast()
            }
        }
    }
}

extension NodeTree: WireValue {
    public init(wire value: JSON, path: String) throws(RPCError) {
        guard value.objectMembers != nil else {
            throw RPCError(.invalidParams, "\(path): is required and must be an object", [("field", .string(path))])
        }
        try self.init(document: value, path: path)
    }

    public var wire: JSON {
        var w = JSONWriter()
        write(to: &w)
        return (try? JSONCodec.decode(w.bytes, strings: KnownStrings.table)) ?? .null
    }
}

/// The `set` of an `update` op: fields in the order given, each with a new value or nil to restore the
/// kind's default. Values are read without knowing the node's kind; whether a field applies is checked
/// when the op meets its node.
public struct NodeUpdate: Sendable, Equatable {
    public struct Assignment: Sendable, Equatable {
        public var name: String
        /// The new value in `values` (ignored when `reset`).
        public var reset: Bool
    }
    public private(set) var assignments: [Assignment] = []
    /// A node holding the new values (its id and kind are placeholders).
    public private(set) var values = NodeSpec(id: "", kind: .view)

    public init() {}

    /// `fields` with their current values in `spec`: how the engine writes the fields a dispatch changed.
    public init(fields: [String], of spec: NodeSpec) {
        values = spec
        assignments = fields.map { Assignment(name: $0, reset: false) }
    }

    /// Sets `field` to `value` (nil: the default) — how the engine writes its own updates, e.g. `key`.
    public mutating func set<V>(_ name: String, _ keyPath: WritableKeyPath<NodeSpec, V>, _ value: V?) {
        if let value { values[keyPath: keyPath] = value }
        assignments.append(Assignment(name: name, reset: value == nil))
    }

    /// Reads `set` members: unknown and structural names are errors here; values are checked by their field.
    public init(members: [(key: String, value: JSON)], id: String, path: String) throws(RPCError) {
        for (key, value) in members {
            if NodeField.isStructural(key) {
                throw NodeTree.invalid(
                    "\(path)\(key) cannot be changed by update (use insert, move or remove)", field: path + key, id: id)
            }
            guard let field = NodeField.named(key) else {
                throw NodeTree.invalid("unknown field \(path)\(key) on \"\(id)\"", field: path + key, id: id)
            }
            if !value.isNull {
                do throws(RPCError) { try field.read(value, into: &values, path: path) } catch {
                    throw error.with("id", .string(id))
                }
            }
            assignments.append(Assignment(name: key, reset: value.isNull))
        }
    }

    /// The members as they are written in an op.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        for a in assignments {
            w.key(a.name)
            if a.reset { w.null() } else { NodeField.named(a.name)!.write(values, to: &w) }
        }
        w.endObject()
    }
}
