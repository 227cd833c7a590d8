/// Error details as their schema states them, whatever the request held: `field` is 1…256 bytes and `id` /
/// `parent` are node ids (1…256 bytes). A member named "" or a 1 MB key or id in a request must not produce an
/// error reply that breaks the schema a client validates it with.
extension RPCError {
    public static let maxFieldBytes = 256

    /// NODE_NOT_FOUND for `id` at `field`, or INVALID_PARAMS when `id` cannot be a node id at all (empty or
    /// longer than 256 bytes): such an id names nothing, and `data.id` could not carry it.
    public static func noNode(_ id: String, field: String) -> RPCError {
        guard isNodeID(id) else {
            return RPCError(
                .invalidParams, "\(field): a node id is 1…\(NodeTree.maxIDLength) bytes, got \(id.utf8.count)",
                [("field", .string(field))])
        }
        return RPCError(.nodeNotFound, "no node \"\(id)\"", [("id", .string(id)), ("field", .string(field))])
    }

    static func isNodeID(_ s: String) -> Bool { !s.isEmpty && s.utf8.count <= NodeTree.maxIDLength }

    /// This error with `field` made non-empty and short, and `id` / `parent` dropped when they are not node ids.
    public var conformed: RPCError {
        var copy = self
        copy.details = details.compactMap { member in
            switch (member.key, member.value) {
            case ("field", .string(let path)): return (member.key, .string(Self.fieldPath(path)))
            case ("id", .string(let id)), ("parent", .string(let id)): return Self.isNodeID(id) ? member : nil
            default: return member
            }
        }
        return copy
    }

    /// A path naming a member called "" reads `""` (`ops[0].set.""`); a path longer than 256 bytes keeps its
    /// first bytes and ends with `…`.
    public static func fieldPath(_ path: String) -> String {
        var text = path.isEmpty || path.hasSuffix(".") ? path + "\"\"" : path
        guard text.utf8.count > maxFieldBytes else { return text }
        let ellipsis = "…"
        var cut = text.utf8.prefix(maxFieldBytes - ellipsis.utf8.count)
        // Never split a UTF-8 sequence: drop continuation bytes and the lead byte they belong to.
        while let last = cut.last, last & 0xC0 == 0x80 { cut = cut.dropLast() }
        if let last = cut.last, last >= 0xC0 { cut = cut.dropLast() }
        text = String(decoding: cut, as: UTF8.self) + ellipsis
        return text
    }
}
