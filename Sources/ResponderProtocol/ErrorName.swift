import ResponderJSON

/// Every error the engine can answer with: a stable name (what clients match on) and its numeric code.
/// Protocol/errors.json lists each one; a test checks the two lists agree.
public enum ErrorName: String, Sendable, CaseIterable {
    // JSON-RPC 2.0
    case parseError = "PARSE_ERROR"
    case invalidRequest = "INVALID_REQUEST"
    case methodNotFound = "METHOD_NOT_FOUND"
    case invalidParams = "INVALID_PARAMS"
    case internalError = "INTERNAL_ERROR"
    // Engine errors, -32000…-32099
    case sessionNotFound = "SESSION_NOT_FOUND"
    case sessionExists = "SESSION_EXISTS"
    case nodeNotFound = "NODE_NOT_FOUND"
    case duplicateID = "DUPLICATE_ID"
    case cycle = "CYCLE"
    case invalidNode = "INVALID_NODE"
    case invalidPlacement = "INVALID_PLACEMENT"
    case revisionConflict = "REVISION_CONFLICT"
    case limitExceeded = "LIMIT_EXCEEDED"
    case replayExpired = "REPLAY_EXPIRED"
    case touchInUse = "TOUCH_IN_USE"
    case touchNotFound = "TOUCH_NOT_FOUND"
    case pressInUse = "PRESS_IN_USE"
    case pressNotFound = "PRESS_NOT_FOUND"
    case wrongKind = "WRONG_KIND"
    // Security (protocol 1.7)
    case sessionOwned = "SESSION_OWNED"
    case clientIDInUse = "CLIENT_ID_IN_USE"
    // Durability (protocol 1.11)
    case storageFull = "STORAGE_FULL"

    public var code: Int {
        switch self {
        case .parseError: return -32700
        case .invalidRequest: return -32600
        case .methodNotFound: return -32601
        case .invalidParams: return -32602
        case .internalError: return -32603
        case .sessionNotFound: return -32001
        case .sessionExists: return -32002
        case .nodeNotFound: return -32003
        case .duplicateID: return -32004
        case .cycle: return -32005
        case .invalidNode: return -32006
        case .invalidPlacement: return -32007
        case .revisionConflict: return -32008
        case .limitExceeded: return -32009
        case .replayExpired: return -32010
        case .touchInUse: return -32011
        case .touchNotFound: return -32012
        case .pressInUse: return -32013
        case .pressNotFound: return -32014
        case .wrongKind: return -32015
        case .sessionOwned: return -32040
        case .clientIDInUse: return -32041
        case .storageFull: return -32050
        }
    }
}

/// An error answer: code and name from `ErrorName`, a human message, and details naming what was wrong
/// (`opIndex`, `id`, `field`, `revision`…) in `data` beside `name`.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: ErrorName
    public var message: String
    public var details: [(key: String, value: JSON)]

    public init(_ name: ErrorName, _ message: String, _ details: [(key: String, value: JSON)] = []) {
        self.name = name
        self.message = message
        self.details = details
    }

    public var code: Int { name.code }
    public var description: String { "\(name.rawValue): \(message)" }

    /// A copy with one more detail (replacing a detail of the same key).
    public func with(_ key: String, _ value: JSON) -> RPCError {
        var copy = self
        copy.details.removeAll { $0.key == key }
        copy.details.append((key, value))
        return copy
    }

    public func detail(_ key: String) -> JSON? { details.last(where: { $0.key == key })?.value }

    /// The `error` member of a JSON-RPC response.
    public var json: JSON {
        .object([
            ("code", JSON(code)), ("message", .string(message)),
            ("data", .object([("name", .string(name.rawValue))] + details))
        ])
    }

    public static func == (lhs: RPCError, rhs: RPCError) -> Bool {
        lhs.name == rhs.name && lhs.message == rhs.message && JSON.object(lhs.details) == JSON.object(rhs.details)
    }
}
