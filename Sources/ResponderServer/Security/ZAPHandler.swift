import Foundation
import Logging
import ZMQ

/// Decides each connection to the engine's sockets (ZAP, rfc.zeromq.org/spec/27). libzmq asks before a
/// connection may send anything: over ipc it gives the peer's credentials in the request's address
/// (`…:<uid>:<gid>:<pid>`, from SO_PEERCRED), over CURVE the client's public key.
struct ZAPPolicy {
    let ownUID: UInt32
    let allowedUIDs: Set<UInt32>
    /// Read at each CURVE connection (AuthorizedClients).
    let authorizedClients: () -> Set<CurveKey>

    enum Decision: Equatable {
        /// Accepted, as `principal`: `uid:<n>`, `curve:<z85 key>` or `insecure-tcp`.
        case allow(principal: String)
        case deny(String)
    }

    func decide(domain: String, address: String, mechanism: String, credentials: [UInt8]?) -> Decision {
        switch (domain, mechanism) {
        case (TransportPolicy.peerUID.zapDomain, "NULL"):
            guard let uid = Self.peerUID(address) else { return .deny("the peer's uid is unknown (no SO_PEERCRED)") }
            guard uid == ownUID || allowedUIDs.contains(uid) else {
                return .deny("uid \(uid) is not allowed (--allow-uid)")
            }
            return .allow(principal: "uid:\(uid)")
        case (TransportPolicy.curve.zapDomain, "CURVE"):
            guard let credentials, let key = CurveKey(bytes: credentials) else { return .deny("no client key") }
            guard authorizedClients().contains(key) else {
                return .deny("client key \(key.z85) is not in authorized_clients")
            }
            return .allow(principal: "curve:\(key.z85)")
        case (TransportPolicy.insecureLoopback.zapDomain, "NULL"):
            return .allow(principal: "insecure-tcp")
        default:
            return .deny("mechanism \(mechanism) is not accepted on this socket")
        }
    }

    /// The uid of `localhost:1000:1000:4242` (libzmq appends `:uid:gid:pid` to an ipc peer's address).
    static func peerUID(_ address: String) -> UInt32? {
        let fields = address.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 4 else { return nil }
        return UInt32(fields[fields.count - 3])
    }
}

/// The ZAP socket (on inproc://zeromq.zap.01 of the engine's context), owned by the engine thread, which polls
/// it with the others. Bound before the engine's sockets, so that no connection is ever let in unasked. A ROUTER
/// rather than a REP: a reply that could not be sent must not leave a REP unable to receive the next request,
/// which would hold every later connection in its handshake.
final class ZAPHandler {
    static let endpoint = "inproc://zeromq.zap.01"
    let socket: ZMQSocket
    private let policy: ZAPPolicy
    private let logger: Logger
    /// Numbers connections, so that each message's User-Id names the connection it came on.
    private var connections = 0

    init(context: ZMQContext, policy: ZAPPolicy, logger: Logger) throws(ZMQError) {
        socket = try ZMQSocket(context: context, type: .router)
        self.policy = policy
        self.logger = logger
        do {
            try socket.setLinger(0)
            try socket.bind(Self.endpoint)
        } catch {
            socket.close()
            throw error
        }
    }

    /// Answers every waiting request.
    func serve() {
        // [libzmq's connection id][empty][request…]
        while let frames = try? socket.receiveMultipart(dontWait: true) {
            guard frames.count > 2, frames[1].isEmpty else { continue }
            _ = try? socket.send(Array(frames[0...1]) + reply(to: Array(frames[2...])), dontWait: true)
        }
    }

    /// [version, request id, domain, address, identity, mechanism, credentials…] → [version, request id,
    /// status, text, user id, metadata]. The user id is `<principal> <connection>` (PeerStamp reads it).
    func reply(to frames: [[UInt8]]) -> [[UInt8]] {
        guard frames.count >= 6, frames[0] == Array("1.0".utf8) else {
            return [
                Array("1.0".utf8), frames.count > 1 ? frames[1] : [], Array("500".utf8),
                Array("malformed ZAP request".utf8), [], []
            ]
        }
        let text = { (i: Int) in String(decoding: frames[i], as: UTF8.self) }
        let decision = policy.decide(
            domain: text(2), address: text(3), mechanism: text(5), credentials: frames.count > 6 ? frames[6] : nil)
        switch decision {
        case .allow(let principal):
            connections += 1
            return [
                frames[0], frames[1], Array("200".utf8), Array("OK".utf8), Array("\(principal) \(connections)".utf8), []
            ]
        case .deny(let reason):
            logger.notice("refused a connection from \(text(3).isEmpty ? "a peer" : text(3)): \(reason)")
            return [frames[0], frames[1], Array("400".utf8), Array(reason.utf8), [], []]
        }
    }

    func close() { socket.close() }
}
