import ResponderJSON

/// Reads an object of parameters (or of node fields), remembering which keys were used so that an
/// unknown key — a typo such as "hiden" — is reported by name instead of being ignored.
public struct ParamReader {
    public let members: [(key: String, value: JSON)]
    /// Prefix for field names in errors, e.g. "ops[2].node." (empty at top level).
    public let path: String
    private let errorName: ErrorName
    private var used: Set<String> = []

    public init(_ value: JSON, path: String = "", errorName: ErrorName = .invalidParams) throws(RPCError) {
        guard let members = value.objectMembers else {
            throw RPCError(
                errorName,
                "\(path.isEmpty ? "params" : String(path.dropLast())) must be an object, got \(value.typeName)",
                [("field", .string(path.isEmpty ? "params" : String(path.dropLast())))])
        }
        self.members = members
        self.path = path
        self.errorName = errorName
    }

    public func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    public mutating func raw(_ key: String) -> JSON? {
        used.insert(key)
        return members.last(where: { $0.key == key })?.value
    }

    public func error(_ key: String, _ message: String) -> RPCError {
        RPCError(errorName, "\(path)\(key): \(message)", [("field", .string(path + key))])
    }

    private func typeError(_ key: String, _ expected: String, _ got: JSON) -> RPCError {
        error(key, "expected \(expected), got \(got.typeName)")
    }

    public mutating func string(_ key: String) throws(RPCError) -> String? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let s = v.stringValue else { throw typeError(key, "a string", v) }
        return s
    }

    public mutating func requiredString(_ key: String) throws(RPCError) -> String {
        guard let s = try string(key) else { throw error(key, "is required") }
        return s
    }

    public mutating func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let b = v.boolValue else { throw typeError(key, "a boolean", v) }
        return b
    }

    public mutating func number(_ key: String) throws(RPCError) -> Double? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let n = v.doubleValue else { throw typeError(key, "a number", v) }
        guard n.isFinite else { throw error(key, "must be finite") }
        return n
    }

    public mutating func int(_ key: String) throws(RPCError) -> Int? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let n = v.intValue else { throw typeError(key, "an integer", v) }
        return n
    }

    public mutating func array(_ key: String) throws(RPCError) -> [JSON]? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let a = v.arrayValue else { throw typeError(key, "an array", v) }
        return a
    }

    /// Throws naming the first key that was never read.
    public func finish() throws(RPCError) {
        if let unknown = members.first(where: { !used.contains($0.key) }) {
            throw RPCError(errorName, "unknown field \(path)\(unknown.key)", [("field", .string(path + unknown.key))])
        }
    }
}
