import Logging
import ZMQ

/// The engine's context and its two sockets, bound, with the ZAP handler that admits their peers and the gate
/// that caps their connections.
final class EngineSockets {
    let context: ZMQContext
    let zap: ZAPHandler
    /// The CURVE public key clients need, when an endpoint is tcp with CURVE.
    let serverKey: CurveKey?
    let rpc: ZMQSocket
    let events: ZMQSocket
    let rpcEndpoint: String
    let eventsEndpoint: String
    let gate: ConnectionGate

    init(config: EngineConfig, logger: Logger = Logger(label: "responderd")) throws {
        let security = try SocketSecurity(config: config)
        serverKey = security.keys?.publicKey
        context = try ZMQContext()
        // Sockets made so far: closed on failure, or terminating the context would wait for them forever.
        var made: [ZMQSocket] = []
        var madeGate: ConnectionGate?
        do {
            zap = try ZAPHandler(context: context, policy: security.zapPolicy, logger: logger)
            made.append(zap.socket)
            rpc = try ZMQSocket(context: context, type: .router)
            made.append(rpc)
            events = try ZMQSocket(context: context, type: .xpub)
            made.append(events)
            try rpc.setLinger(0)
            // Replies queued to one client are bounded (`--reply-hwm`): a client that never reads loses the
            // replies past it (Protocol/README.md 10); with ROUTER_MANDATORY the engine sees each drop.
            try rpc.setSendHWM(config.bounds.replyHighWaterMark)
            try rpc.setRouterMandatory(true)
            // libzmq refuses a larger frame from its size header, before buffering any of it.
            try rpc.setMaxMessageSize(Int64(EngineBounds.maxFrameBytes(config.limits)))
            try rpc.setHandshakeInterval(config.bounds.handshakeTimeoutMs)
            try events.setLinger(0)
            try events.setSendHWM(config.publishHighWaterMark)
            try events.setMaxMessageSize(config.bounds.maxSubscriptionFrameBytes)
            // Every subscription and unsubscription reaches the engine, which counts them per connection.
            try events.setXPubVerboser(true)
            // libzmq files each subscription in its trie before the engine reads it, as long as its connection's
            // pipe has more: a short pipe runs dry sooner, so the engine reads (and cuts a peer over its bounds)
            // before much more is filed.
            try events.setReceiveHWM(EngineBounds.subscriptionPipe)
            try events.setHandshakeInterval(config.bounds.handshakeTimeoutMs)
            try events.setXPubWelcomeMessage("$sys/welcome")
            try security.apply(security.rpcPolicy, to: rpc)
            try security.apply(security.eventsPolicy, to: events)
            madeGate = try ConnectionGate(
                context: context, sockets: [("rpc", rpc), ("events", events)],
                maxClients: config.bounds.maxClients, logger: logger)
            gate = madeGate!
            try rpc.bind(TransportPolicy.bindable(config.rpcEndpoint))
            try events.bind(TransportPolicy.bindable(config.eventsEndpoint))
            // tcp://…:* binds report the real port.
            rpcEndpoint = try rpc.lastEndpoint
            eventsEndpoint = try events.lastEndpoint
        } catch {
            madeGate?.stop()
            made.forEach { $0.close() }
            context.terminate()
            throw EngineError.socket("cannot bind: \(error)")
        }
    }

    func close() {
        zap.close()
        gate.stop()
        rpc.close()
        events.close()
        context.terminate()
    }
}
