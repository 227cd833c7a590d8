import ResponderProtocol

/// Reads node objects (id, kind, fields, children) from JSON, iteratively so nesting depth is no risk.
enum NodeReader {
    static let maxIDLength = 256

    /// One parsed node with the JSON of its children still to read.
    struct Parsed {
        var node: Node
        var children: [JSON]
    }

    static func invalid(_ message: String, field: String, id: String? = nil) -> RPCError {
        var details: [(key: String, value: JSON)] = [("field", .string(field))]
        if let id { details.append(("id", .string(id))) }
        return RPCError(.invalidNode, message, details)
    }

    /// Reads one node object; `path` is the prefix for field names in errors (e.g. "node.children[1].").
    static func read(_ json: JSON, path: String) throws(RPCError) -> Parsed {
        var r = try ParamReader(json, path: path, errorName: .invalidNode)
        guard let id = try r.string("id") else { throw invalid("\(path)id is required", field: path + "id") }
        guard !id.isEmpty, id.utf8.count <= maxIDLength else {
            throw invalid("\(path)id must be 1…\(maxIDLength) bytes", field: path + "id")
        }
        guard let kindName = try r.string("kind") else { throw invalid("\(path)kind is required", field: path + "kind", id: id) }
        guard let kind = NodeKind(rawValue: kindName) else {
            let all = NodeKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid("\(path)kind: unknown kind \"\(kindName)\" (expected one of \(all))", field: path + "kind", id: id)
        }
        var node = Node(id: id, kind: kind)
        _ = r.raw("revision")  // read-only: accepted so tree.get output loads back, then reassigned
        let children = try r.array("children") ?? []
        for member in r.members {
            guard !NodeField.structural.contains(member.key) else { continue }
            guard let field = NodeField(rawValue: member.key) else {
                throw invalid("unknown field \(path)\(member.key) on \(kind.rawValue) \"\(id)\"", field: path + member.key, id: id)
            }
            guard field.applies(to: kind) else {
                throw invalid("field \(path)\(member.key) does not apply to a \(kind.rawValue)", field: path + member.key, id: id)
            }
            _ = r.raw(member.key)
            try withID(id) { () throws(RPCError) in try field.read(member.value, into: &node, path: path) }
        }
        try r.finish()
        return Parsed(node: node, children: children)
    }

    /// Runs `body`, making sure an error it throws names the node.
    static func withID(_ id: String, _ body: () throws(RPCError) -> Void) throws(RPCError) {
        do { try body() } catch {
            throw error.detail("id") == nil ? error.with("id", .string(id)) : error
        }
    }

    /// Applies `update … set` members to a node.
    static func update(_ node: inout Node, set: [(key: String, value: JSON)]) throws(RPCError) {
        for (key, value) in set {
            let path = "set."
            if NodeField.structural.contains(key) {
                throw invalid("\(path)\(key) cannot be changed by update (use insert, move or remove)", field: path + key, id: node.id)
            }
            guard let field = NodeField(rawValue: key) else {
                throw invalid("unknown field \(path)\(key) on \(node.kind.rawValue) \"\(node.id)\"", field: path + key, id: node.id)
            }
            guard field.applies(to: node.kind) else {
                throw invalid("field \(path)\(key) does not apply to a \(node.kind.rawValue)", field: path + key, id: node.id)
            }
            let id = node.id
            try withID(id) { () throws(RPCError) in try field.read(value, into: &node, path: path) }
        }
    }
}
