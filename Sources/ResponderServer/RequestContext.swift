import ResponderCore
import ResponderProtocol

/// What a handler gets: the request, who sent it, and the engine state it may read and change.
struct RequestContext {
    let state: EngineState
    let client: ClientInfo
    let requestID: JSON?
    var params: ParamReader

    var cause: Cause { Cause(client: client.displayName, request: requestID) }

    /// The session named by `session` (default "default").
    mutating func session() throws(RPCError) -> SessionHost {
        let name = try params.session()
        guard EngineConfig.isValidName(name) else {
            throw params.error("session", "session names match [A-Za-z0-9_-]{1,64}")
        }
        guard let host = state.sessions[name] else {
            throw RPCError(.sessionNotFound, "no session \"\(name)\"", [("session", .string(name)), ("field", "session")])
        }
        client.attached.insert(name)
        return host
    }
}

/// A handler's answer: a JSON value, or a result already encoded (large trees, replayed events).
enum ReplyBody {
    case json(JSON)
    case encoded([UInt8])
}

/// The seq range a request's events were published under, for the reply.
struct Published {
    var first: Int?
    var last: Int?
    mutating func add(_ seq: Int) {
        if first == nil { first = seq }
        last = seq
    }
    func members(session: SessionHost) -> [(key: String, value: JSON)] {
        let range: JSON = first.map { [JSON($0), JSON(last!)] } ?? .null
        return [("seq", JSON(session.seq)), ("seqRange", range)]
    }
}
