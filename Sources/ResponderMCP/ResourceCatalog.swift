import MCP
import ResponderClient
import ResponderJSON
import ResponderOutput
import ResponderProtocol

/// The resources: each session's world (`responder://<session>/world`, its session.snapshot) and its recent
/// traces (`responder://<session>/traces`, the last trace events from the engine's replay ring). Both are
/// JSON text, written by the engine's own writer, so a world of any depth reads whole.
package struct ResourceCatalog: Sendable {
    package let engine: EngineThread

    package enum Kind: String, CaseIterable, Sendable {
        case world, traces
    }

    /// How many trace events `traces` shows, and how far back in the session's events it looks for them.
    package static let recentTraces = 20
    package static let lookBack = 500

    package static func uri(_ session: String, _ kind: Kind) -> String { "responder://\(session)/\(kind.rawValue)" }

    /// The session and kind a URI names, or nil.
    package static func parse(_ uri: String) -> (session: String, kind: Kind)? {
        let prefix = "responder://"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let kind = Kind(rawValue: String(parts[1])) else { return nil }
        return (String(parts[0]), kind)
    }

    package static let templates: [Resource.Template] = [
        Resource.Template(
            uriTemplate: "responder://{session}/world", name: "world", title: "A session's world",
            description:
                "The session's snapshot: responder tree, detached subtrees, first responders, live touches and presses, recognizers, revision and seq.",
            mimeType: "application/json"),
        Resource.Template(
            uriTemplate: "responder://{session}/traces", name: "traces", title: "A session's recent traces",
            description:
                "The last \(recentTraces) dispatch traces of the session (taps, touches, actions, focus changes), each with its seq, cause (which client) and a one-line summary.",
            mimeType: "application/json")
    ]

    package func list() async throws -> [Resource] {
        let sessions = try await value(engine.call(SessionListRequest.method, [:]))
        return (sessions["sessions"]?.arrayValue ?? []).compactMap { $0["session"]?.stringValue }.flatMap { session in
            [
                Resource(
                    name: "\(session) world", uri: Self.uri(session, .world), title: "World of session \(session)",
                    description: "The responder tree and dispatch state of session \(session).",
                    mimeType: "application/json"),
                Resource(
                    name: "\(session) traces", uri: Self.uri(session, .traces),
                    title: "Recent traces of session \(session)",
                    description: "The last \(Self.recentTraces) dispatch traces of session \(session).",
                    mimeType: "application/json")
            ]
        }
    }

    package func read(_ uri: String) async throws -> [Resource.Content] {
        guard let (session, kind) = Self.parse(uri) else {
            throw MCPError.serverError(
                code: -32002,
                message: "no resource \(uri): expected responder://<session>/world or responder://<session>/traces")
        }
        var body: JSON
        switch kind {
        case .world:
            body = try await value(engine.call(SessionSnapshotRequest.method, ["session": .string(session)]), uri: uri)
        case .traces: body = try await traces(session, uri: uri)
        }
        defer { JSON.release(&body) }
        return [.text(JSONCodec.encodeString(body), uri: uri, mimeType: "application/json")]
    }

    /// The session's last seq; -32002 if there is no such session. A replay after the end returns nothing but
    /// that seq: cheaper than a snapshot, which holds the whole world.
    package func currentSeq(_ session: String, uri: String) async throws -> Int {
        let now = try await value(
            engine.call(TraceReplayRequest.method, ["session": .string(session), "after": JSON(1 << 52)]), uri: uri)
        return now["seq"]?.intValue ?? 0
    }

    /// `{session, seq, traces: [{seq, cause, summary, trace}], note?}`, oldest first: the trace events among
    /// the last `lookBack` events, or among those the engine still holds.
    private func traces(_ session: String, uri: String) async throws -> JSON {
        let seq = try await currentSeq(session, uri: uri)
        var after = max(0, seq - Self.lookBack)
        var found: [JSON] = []
        var note: String?
        while true {
            let reply = await engine.call(
                TraceReplayRequest.method, ["session": .string(session), "after": JSON(after)])
            if case .failure(.rpc(let e)) = reply, e.name == .replayExpired, let oldest = e.detail("oldest")?.intValue {
                if oldest - 1 > after {
                    after = oldest - 1
                    continue
                }
                // A session that started with a world in no event (`responderd --world`, the engine's default
                // session under `./dev run`) replays nothing after seq 0, since those events cannot rebuild its
                // world. The traces need no world: they are read from the next seq on, and the one event
                // that cannot be read is said.
                if after == 0 {
                    guard seq > 0 else { break }
                    after = 1
                    note =
                        "event 1 of \(session) is not listed: the session started with a world that is in no event (responderd --world), and the engine replays such a session's events from seq 2 on"
                    continue
                }
            }
            var page = try value(reply, uri: uri)
            defer { JSON.release(&page) }
            for entry in page["events"]?.arrayValue ?? [] {
                let event = entry["event"] ?? .null
                after = max(after, event["seq"]?.intValue ?? after)
                guard event["stream"]?.stringValue == "trace" else { continue }
                found.append([
                    "seq": event["seq"] ?? .null, "cause": event["cause"] ?? .null,
                    "summary": .string(EventFormatter.summary(event)), "trace": event["trace"] ?? .null
                ])
                if found.count > Self.recentTraces { found.removeFirst() }
            }
            if page["complete"]?.boolValue != false { break }
        }
        var body: JSON = ["session": .string(session), "seq": JSON(seq), "traces": .array(found)]
        if let note { body = body.setting("note", .string(note)) }
        return body
    }

    /// The result, or the error as MCP sees it: a session that does not exist is a resource that does not (-32002).
    private func value(_ reply: Result<JSON, ClientError>, uri: String? = nil) throws -> JSON {
        switch reply {
        case .success(let json): return json
        case .failure(.rpc(let e)) where e.name == .sessionNotFound:
            throw MCPError.serverError(code: -32002, message: "no resource \(uri ?? ""): \(e.message)")
        case .failure(.rpc(let e)): throw MCPError.internalError(Output.describe(e))
        case .failure(let e):
            throw MCPError.internalError("the Responder Engine is not reachable: \(e.description)")
        }
    }
}
