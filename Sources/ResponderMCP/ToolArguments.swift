import ResponderJSON
import ResponderProtocol

/// A tool's arguments, read strictly as the engine reads params: a missing, mistyped or unknown argument is
/// INVALID_PARAMS naming it (`field`), so a model sees exactly which argument to fix.
package struct ToolArguments {
    private var members: [(key: String, value: JSON)]

    package init(_ arguments: JSON) { members = arguments.objectMembers ?? [] }

    /// The argument (nil when absent or null), removed so that `done` can name whatever is left.
    package mutating func take(_ key: String) -> JSON? {
        guard let value = members.last(where: { $0.key == key })?.value else { return nil }
        members.removeAll { $0.key == key }
        return value.isNull ? nil : value
    }

    package mutating func number(_ key: String) throws(RPCError) -> Double {
        guard let value = take(key) else { throw Self.invalid(key, "is required: a number") }
        guard let n = value.doubleValue, n.isFinite else {
            throw Self.invalid(key, "must be a number, got \(value.typeName)")
        }
        return n
    }

    package mutating func optionalNumber(_ key: String) throws(RPCError) -> Double? {
        guard members.contains(where: { $0.key == key && !$0.value.isNull }) else { return nil }
        return try number(key)
    }

    /// `x` and `y` together, or neither (nil); one without the other names the one missing.
    package mutating func optionalPoint(_ x: String, _ y: String) throws(RPCError) -> (x: Double, y: Double)? {
        switch (
            members.contains { $0.key == x && !$0.value.isNull }, members.contains { $0.key == y && !$0.value.isNull }
        ) {
        case (false, false): return nil
        case (true, false): throw Self.invalid(y, "is required with \(x)")
        case (false, true): throw Self.invalid(x, "is required with \(y)")
        case (true, true): return (try number(x), try number(y))
        }
    }

    package mutating func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard let b = value.boolValue else { throw Self.invalid(key, "must be a boolean, got \(value.typeName)") }
        return b
    }

    package mutating func string(_ key: String) throws(RPCError) -> String {
        guard let s = try optionalString(key) else { throw Self.invalid(key, "is required: a string") }
        return s
    }

    package mutating func optionalString(_ key: String) throws(RPCError) -> String? {
        guard let value = take(key) else { return nil }
        guard let s = value.stringValue, !s.isEmpty else {
            throw Self.invalid(key, "must be a non-empty string, got \(value.typeName)")
        }
        return s
    }

    package mutating func optionalInteger(_ key: String) throws(RPCError) -> Int? {
        guard let value = take(key) else { return nil }
        guard let n = value.intValue, n >= 0 else { throw Self.invalid(key, "must be an integer ≥ 0") }
        return n
    }

    /// Fails naming the first argument no one took.
    package func done() throws(RPCError) {
        if let extra = members.first { throw Self.invalid(extra.key, "is not an argument of this tool") }
    }

    package static func invalid(_ field: String, _ message: String) -> RPCError {
        RPCError(.invalidParams, "\(field) \(message)", [("field", .string(field))])
    }
}
