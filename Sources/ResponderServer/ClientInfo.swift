import Foundation
import ResponderProtocol

/// A tool attached over the rpc socket, known by its routing id and, after client.hello, by name.
final class ClientInfo {
    let routingID: [UInt8]
    let id: String
    var name: String?
    var kind: String?
    var lastSeen: Date
    /// Sessions this client has addressed (only ever added to: `attach`).
    private(set) var attached: Set<String> = []
    /// The session last added to `attached`: a tool addresses the same session request after request, and
    /// comparing the name is cheaper than hashing it into the set each time.
    private var lastAttached: String?
    /// The connection holding this id, and the secret its `client.hello` set (ClientClaims).
    var peer: PeerStamp?
    var token: String?

    init(routingID: [UInt8], now: Date) {
        self.routingID = routingID
        self.id = GeneratedRoutingID.shown(routingID).map { String(format: "%02x", $0) }.joined()
        self.lastSeen = now
    }

    func attach(_ session: String) {
        guard session != lastAttached else { return }
        attached.insert(session)
        lastAttached = session
    }

    /// How events' `cause.client` names this client.
    var displayName: String { name ?? id }

    var summary: SessionClientsRequest.Client {
        .init(client: id, name: name, kind: kind, lastSeen: ISO8601DateFormatter().string(from: lastSeen))
    }
}
