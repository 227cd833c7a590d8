import ResponderLocal
import ResponderProtocol

/// A message's `User-Id` as the ZAP handler set it: `<principal> <connection number>`. The principal is who
/// the peer proved to be (`uid:1000`, `curve:<key>`, `insecure-tcp`); the number tells connections apart.
struct PeerStamp: Equatable {
    let principal: String
    let connection: Int

    init?(userID: String) {
        guard let space = userID.lastIndex(of: " "), let n = Int(userID[userID.index(after: space)...]) else {
            return nil
        }
        principal = String(userID[..<space])
        connection = n
    }
}

/// Who holds a client id (Protocol/README.md 14.4–14.5). A client id is a routing id, which any connection may
/// claim: ownership of touches and presses goes with the connection that holds the id. A new connection
/// with the same id takes it over when nothing is at stake (the id owns no live touch or press), or when it is
/// the same principal and the holder set no `client.hello` token; otherwise it must repeat the holder's token
/// in `client.hello` before it may dispatch (CLIENT_ID_IN_USE until then).
enum ClientClaims {
    /// Whether `peer` holds `client` for this request (taking it over when allowed).
    static func claim(_ client: ClientInfo, by peer: PeerStamp?, in state: EngineState) -> Bool {
        // No ZAP (an engine state driven in-process by tests): one connection per id.
        guard let peer else { return true }
        guard let holder = client.peer, holder != peer else {
            client.peer = peer
            return true
        }
        if holder.principal == peer.principal, client.token == nil {
            client.peer = peer
            return true
        }
        if !state.ownsLiveInput(client.id) {
            client.peer = peer
            client.token = nil
            return true
        }
        return false
    }

    /// `client.hello` with `token` from a connection that does not hold the id: the holder's principal and
    /// token prove it is the same client, which then holds the id.
    static func prove(_ client: ClientInfo, by peer: PeerStamp?, token: String?) throws(RPCError) {
        guard let peer, let held = client.token, let token, client.peer?.principal == peer.principal,
            Secrets.equal(held, token)
        else {
            throw inUse(client)
        }
        client.peer = peer
    }

    static func inUse(_ client: ClientInfo) -> RPCError {
        RPCError(
            .clientIDInUse,
            "client id \(client.id) is held by another connection that owns live touches or presses; connect with another routing id, or send client.hello with that client's token",
            [("client", .string(client.id))])
    }
}

extension EngineState {
    /// Whether client `id` owns a live touch or press in any session.
    func ownsLiveInput(_ id: String) -> Bool {
        sessions.values.contains { host in
            host.state.liveTouches.contains { $0.client == id } || host.state.livePresses.contains { $0.client == id }
        }
    }
}
