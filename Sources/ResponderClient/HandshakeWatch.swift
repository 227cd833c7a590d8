import Foundation
import ZMQ

/// Watches a client socket's security handshakes (a libzmq socket monitor), so that an engine that refuses
/// this client is reported at once and why, instead of as a reply that never comes: libzmq gives a refused
/// peer no message. Owned, like the socket, by one thread.
final class HandshakeWatch {
    private let pair: ZMQSocket
    private let address: EngineAddress
    /// Failed handshakes since the last one that succeeded. One alone may be an engine that died mid-handshake
    /// (the connection closed); mismatched keys or mechanisms fail again at every reconnection.
    private var failures = 0

    /// Call before `socket` connects.
    init(context: ZMQContext, socket: ZMQSocket, address: EngineAddress) throws(ZMQError) {
        let endpoint = "inproc://responder-handshake-\(UInt64.random(in: 0 ... .max))"
        try socket.monitorHandshakes(on: endpoint)
        pair = try ZMQSocket(context: context, type: .pair)
        try pair.setLinger(0)
        try pair.connect(endpoint)
        self.address = address
    }

    var pollItem: PollItem { .socket(pair, .readable) }

    /// Throws if the engine refused a handshake, or if handshakes keep failing.
    func check() throws(ClientError) {
        while let outcome = try? pair.readHandshake() { try take(outcome) }
    }

    private func take(_ outcome: HandshakeOutcome) throws(ClientError) {
        let curve = address.serverKey != nil
        switch outcome {
        case .refused(let status):
            throw .transport(
                "the engine refused this client (ZAP status \(status)): "
                    + (curve
                        ? "its key is not in the engine's authorized_clients (`responder keygen --authorize`, or add the public key there)"
                        : "its user is not the engine's (start the engine with --allow-uid \(getuid())), or the engine expects CURVE")
            )
        case .failed:
            failures += 1
            guard failures >= 2 else { return }
            throw .transport(
                "the security handshake with \(address.rpc) failed: "
                    + (curve
                        ? "the engine's key is not the curveServerKey this client used (a stale discovery file or RESPONDER_SERVER_KEY?)"
                        : "the engine expects CURVE (tcp) and this client connected without it"))
        case .succeeded:
            failures = 0
        }
    }

    func close() { pair.close() }
}
