import Foundation
import ResponderProtocol

/// engine.info, client.hello.
enum EngineMethods {
    static func register(_ table: inout MethodTable) {
        table.add(EngineInfoRequest.self) { _, ctx in
            let c = ctx.state.config
            var info = EngineInfoRequest.Response(
                name: c.name, version: EngineConfig.version, protocol: EngineConfig.protocolVersion, pid: Int(getpid()),
                rpc: c.rpcEndpoint, events: c.eventsEndpoint,
                startedAt: ISO8601DateFormatter().string(from: ctx.state.startedAt),
                sessions: ctx.state.sessions.count,
                limits: EngineLimits(
                    maxNodes: c.limits.maxNodes, maxDepth: c.limits.maxDepth, maxMessageBytes: c.limits.maxMessageBytes,
                    maxOpsPerBatch: c.limits.maxOpsPerBatch, replayBuffer: c.replayBuffer,
                    replayBytes: c.bounds.replayBytes, maxSessions: c.bounds.maxSessions,
                    maxClients: c.bounds.maxClients,
                    replyHwm: c.bounds.replyHighWaterMark, maxFrameBytes: EngineBounds.maxFrameBytes(c.limits),
                    handshakeTimeoutMs: c.bounds.handshakeTimeoutMs, maxClientStringBytes: c.bounds.maxClientStringBytes
                ),
                methods: Methods.names, client: ctx.client.id)
            info.epoch = ctx.state.epoch
            info.durability = EngineDurability(
                mode: c.isDurable ? c.durability.rawValue : "none", stateDir: c.isDurable ? c.stateDirectory : nil)
            return info
        }
        // Names the calling client; its name then appears in events' `cause.client`.
        table.add(ClientHelloRequest.self) { r, ctx in
            let most = ctx.state.config.bounds.maxClientStringBytes
            for (field, value) in [("name", r.name), ("kind", r.kind ?? "")] where value.utf8.count > most {
                throw RPCError(
                    .invalidParams, "\(field): must be at most \(most) bytes (limits.maxClientStringBytes)",
                    [("field", .string(field))])
            }
            if !ctx.holdsClientID { try ClientClaims.prove(ctx.client, by: ctx.peer, token: r.token) }
            if let token = r.token { ctx.client.token = token }
            ctx.client.name = r.name
            ctx.client.kind = r.kind
            return ClientHelloRequest.Response(client: ctx.client.id, name: r.name)
        }
    }
}
