import Foundation
import ResponderProtocol

/// engine.info, client.hello.
enum EngineMethods {
    static func register(_ table: inout MethodTable) {
        table.add(EngineInfoRequest.self) { _, ctx in
            let c = ctx.state.config
            return .typed(.init(
                name: c.name, version: EngineConfig.version, protocol: EngineConfig.protocolVersion, pid: Int(getpid()),
                rpc: c.rpcEndpoint, events: c.eventsEndpoint, startedAt: ISO8601DateFormatter().string(from: ctx.state.startedAt),
                sessions: ctx.state.sessions.count,
                limits: EngineLimits(maxNodes: c.limits.maxNodes, maxDepth: c.limits.maxDepth, maxMessageBytes: c.limits.maxMessageBytes,
                                     maxOpsPerBatch: c.limits.maxOpsPerBatch, replayBuffer: c.replayBuffer),
                methods: Methods.names, client: ctx.client.id))
        }
        // Names the calling client; its name then appears in events' `cause.client`.
        table.add(ClientHelloRequest.self) { r, ctx in
            ctx.client.name = r.name
            ctx.client.kind = r.kind
            return .typed(.init(client: ctx.client.id, name: r.name))
        }
    }
}
