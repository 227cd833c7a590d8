import Foundation
import ZMQ

/// What the engine's two sockets need before they bind: each endpoint's policy, the ZAP decisions, and the
/// CURVE keypair when an endpoint is tcp (loaded or made in the state directory).
struct SocketSecurity {
    let rpcPolicy: TransportPolicy
    let eventsPolicy: TransportPolicy
    let keys: EngineKeys?
    let zapPolicy: ZAPPolicy

    init(config: EngineConfig) throws {
        rpcPolicy = try TransportPolicy(endpoint: config.rpcEndpoint, insecureTCP: config.security.insecureTCP)
        eventsPolicy = try TransportPolicy(endpoint: config.eventsEndpoint, insecureTCP: config.security.insecureTCP)
        let stateDirectory = StateDirectory.path(for: config)
        keys =
            rpcPolicy == .curve || eventsPolicy == .curve ? try EngineKeys.loadOrCreate(directory: stateDirectory) : nil
        zapPolicy = ZAPPolicy(ownUID: geteuid(), allowedUIDs: config.security.allowedUIDs) {
            AuthorizedClients.read(directory: stateDirectory).keys
        }
    }

    func apply(_ policy: TransportPolicy, to socket: ZMQSocket) throws(ZMQError) {
        // libzmq admits a connection unasked when no handler is bound (ZMQ_ZAP_ENFORCE_DOMAIN, which would
        // refuse instead, is a draft option Debian's build lacks): EngineSockets binds the handler first.
        try socket.setZAPDomain(policy.zapDomain)
        if policy == .curve, let keys { try socket.setCurveServer(secretKey: keys.secretKey) }
    }
}
