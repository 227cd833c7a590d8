import ZMQ

/// The engine's context and its two sockets, bound.
final class EngineSockets {
    let context: ZMQContext
    let rpc: ZMQSocket
    let events: ZMQSocket
    let rpcEndpoint: String
    let eventsEndpoint: String

    init(config: EngineConfig) throws {
        context = try ZMQContext()
        // Sockets made so far: closed on failure, or terminating the context would wait for them forever.
        var made: [ZMQSocket] = []
        do {
            rpc = try ZMQSocket(context: context, type: .router)
            made.append(rpc)
            events = try ZMQSocket(context: context, type: .xpub)
            made.append(events)
            try rpc.setLinger(0)
            // A ROUTER drops replies silently past its send high-water mark; a client that pipelines many
            // requests must still get every reply, so replies are never dropped (memory is bounded by
            // what that client itself sent).
            try rpc.setSendHWM(0)
            try events.setLinger(0)
            try events.setSendHWM(config.publishHighWaterMark)
            try events.setXPubWelcomeMessage("$sys/welcome")
            try rpc.bind(config.rpcEndpoint)
            try events.bind(config.eventsEndpoint)
            // tcp://…:* binds report the real port.
            rpcEndpoint = try rpc.lastEndpoint
            eventsEndpoint = try events.lastEndpoint
        } catch {
            made.forEach { $0.close() }
            context.terminate()
            throw EngineError.socket("cannot bind: \(error)")
        }
    }

    func close() {
        rpc.close()
        events.close()
        context.terminate()
    }
}
