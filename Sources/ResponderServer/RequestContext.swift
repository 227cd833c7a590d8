import ResponderJSON
import ResponderProtocol

/// What a handler gets: who sent the request and the engine state it may read and change.
struct RequestContext {
    let state: EngineState
    let client: ClientInfo
    let requestID: JSON?
    /// The world of a large tree.load or session.create, built and validated off the engine thread.
    var prepared: PreparedWorld?
    /// The connection the request came on (nil without ZAP), and whether it holds `client`'s id (ClientClaims).
    var peer: PeerStamp? = nil
    var holdsClientID = true
    /// A numeric id as the client wrote it (`RPCRequest.idText`).
    var requestIDText: [UInt8]? = nil

    var cause: Cause { Cause(client: client.displayName, request: requestID, requestText: requestIDText) }

    /// The session named `name`; the client is then attached to it.
    func session(_ name: String) throws(RPCError) -> SessionHost {
        // Every name in the table was checked on its way in (session.create, the default, a restored row):
        // only a name not found there is checked, so that a malformed one is refused as such.
        guard let host = state.session(named: name) else {
            try SessionMethods.checkName(name)
            throw RPCError(
                .sessionNotFound, "no session \"\(name)\"", [("session", .string(name)), ("field", "session")])
        }
        client.attach(name)
        return host
    }
}

/// The seq range a request's events were published under, for the reply.
struct SeqRange {
    var first: Int?
    var last: Int?
    mutating func add(_ seq: Int) {
        if first == nil { first = seq }
        last = seq
    }
    var range: [Int]? { first.map { [$0, last!] } }
    var rangeJSON: JSON { range.map { .array($0.map { JSON($0) }) } ?? .null }

    /// `base` with the session's seq and this range (12.2).
    func reply<Base>(_ base: Base, _ host: SessionHost, revision: Int? = nil) -> Published<Base> {
        Published(base, revision: revision, seq: host.seq, seqRange: range)
    }
}
