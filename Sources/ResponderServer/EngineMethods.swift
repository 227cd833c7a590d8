import Foundation
import ResponderProtocol

/// engine.info, client.hello.
enum EngineMethods {
    static let table: [String: Handler] = [
        "engine.info": info,
        "client.hello": hello,
    ]

    static func info(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        try ctx.params.finish()
        let c = ctx.state.config
        let limits: JSON = [
            "maxNodes": JSON(c.limits.maxNodes), "maxDepth": JSON(c.limits.maxDepth),
            "maxMessageBytes": JSON(c.limits.maxMessageBytes), "maxOpsPerBatch": JSON(c.limits.maxOpsPerBatch),
            "replayBuffer": JSON(c.replayBuffer),
        ]
        return .json([
            "name": .string(c.name), "version": .string(EngineConfig.version),
            "protocol": JSON(EngineConfig.protocolVersion), "pid": JSON(Int(getpid())),
            "rpc": .string(c.rpcEndpoint), "events": .string(c.eventsEndpoint),
            "startedAt": .string(ISO8601DateFormatter().string(from: ctx.state.startedAt)),
            "sessions": JSON(ctx.state.sessions.count), "limits": limits,
            "methods": JSON(Methods.names), "client": .string(ctx.client.id),
        ])
    }

    /// Names the calling client; its name then appears in events' `cause.client`.
    static func hello(_ ctx: inout RequestContext) throws(RPCError) -> ReplyBody {
        let name = try ctx.params.requiredString("name")
        guard !name.isEmpty, name.utf8.count <= 128 else { throw ctx.params.error("name", "must be 1…128 bytes") }
        let kind = try ctx.params.string("kind")
        try ctx.params.finish()
        ctx.client.name = name
        ctx.client.kind = kind
        return .json(["client": .string(ctx.client.id), "name": .string(name)])
    }
}
