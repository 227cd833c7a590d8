import Foundation
import ResponderClient
import ResponderProtocol
import Synchronization

/// `resources/subscribe`: one session watch (an EngineThread, `SessionWatch`) per session with a subscribed
/// resource, and the URIs subscribed. A watch reports every change of its session; only the URIs still
/// subscribed are notified.
package final class ResourceWatchers: Sendable {
    private struct State {
        var uris: Set<String> = []
        var watches: [String: EngineThread] = [:]
    }

    private let state = Mutex(State())
    private let engine: EngineThread
    private let notify: @Sendable (String) -> Void

    /// `notify` sends `notifications/resources/updated` for a URI. Each watch finds the engine as `engine` does.
    package init(engine: EngineThread, notify: @escaping @Sendable (String) -> Void) {
        self.engine = engine
        self.notify = notify
    }

    /// Subscribes to `uri` once its session is known to exist. Events from the session's current seq on are
    /// followed gap-free (a watch that joins late recovers what it missed), so no change after this call
    /// goes unnoticed.
    package func subscribe(_ uri: String, from seq: Int, session: String) {
        let connector = engine.connector.named("responder-mcp", kind: "mcp-watch")
        state.withLock { s in
            s.uris.insert(uri)
            guard s.watches[session] == nil else { return }
            s.watches[session] = try? SessionWatch.start(session: session, since: seq, connector: connector) {
                [weak self] kinds in
                self?.changed(session, kinds)
            }
        }
    }

    package func unsubscribe(_ uri: String) {
        let idle: EngineThread? = state.withLock { s in
            s.uris.remove(uri)
            guard let session = ResourceCatalog.parse(uri)?.session,
                !s.uris.contains(where: { ResourceCatalog.parse($0)?.session == session })
            else { return nil }
            return s.watches.removeValue(forKey: session)
        }
        idle?.stop()
    }

    package func stopAll() {
        let all = state.withLock { s in
            defer { s.watches = [:] }
            return Array(s.watches.values)
        }
        for w in all { w.stop() }
    }

    private func changed(_ session: String, _ kinds: Set<ResourceCatalog.Kind>) {
        let uris = state.withLock { s in kinds.map { ResourceCatalog.uri(session, $0) }.filter(s.uris.contains) }
        for uri in uris.sorted() { notify(uri) }
    }
}

/// Follows one session on an EngineThread of its own (its own subscriber and connection, SessionFollower) and
/// reports which resources each burst of events changed: the world on any event, the traces on a trace event.
/// A gap filled from the replay ring changed both. A deleted session changed both too, and the watch waits for
/// it to be created again; an engine that went away is looked for again every second.
package enum SessionWatch {
    package static func start(
        session: String, since: Int, connector: EngineThread.Connector,
        changed: @escaping @Sendable (Set<ResourceCatalog.Kind>) -> Void
    ) throws(ClientError) -> EngineThread {
        try EngineThread(name: "mcp-watch-\(session)", connector: connector) { context in
            var since: Int? = since
            while !context.isStopping {
                do throws(ClientError) {
                    try follow(context, session: session, since: &since, changed: changed)
                } catch {
                    context.disconnect()
                    FileHandle.standardError.write(
                        Data("responder mcp: watching \(session): \(error.description); trying again\n".utf8))
                    // From now on when it comes back: whatever changed meanwhile is announced once it does.
                    since = nil
                    if context.wait(seconds: 1) { changed(Set(ResourceCatalog.Kind.allCases)) }
                }
            }
        }
    }

    private static func follow(
        _ context: EngineThread.Context, session: String, since: inout Int?,
        changed: @Sendable (Set<ResourceCatalog.Kind>) -> Void
    ) throws(ClientError) {
        let connection = try context.connection()
        var from = since ?? 0
        if since == nil { from = try connection.send(TraceReplayRequest(session: session, after: Int(1 << 52))).seq }
        var follower = try SessionFollower(connection: connection, session: session, since: from)
        var gone = false
        while !context.isStopping {
            guard let first = try follower.next(timeoutMs: 200) else { continue }
            // A burst of events is one notification per resource.
            var kinds = Set<ResourceCatalog.Kind>()
            var item: SessionFollower.Item? = first
            var count = 0
            while let current = item, count < 10_000 {
                count += 1
                switch current {
                case .event(let e):
                    kinds.insert(.world)
                    if e.eventStream == .trace { kinds.insert(.traces) }
                case .recovered, .snapshot:
                    kinds.formUnion(ResourceCatalog.Kind.allCases)
                case .system(let e):
                    guard e.topic == "$sys/sessions", e.body["session"]?.stringValue == session else { break }
                    if e.body["action"]?.stringValue == "deleted" {
                        gone = true
                        kinds.formUnion(ResourceCatalog.Kind.allCases)
                    } else if gone, e.body["action"]?.stringValue == "created" {
                        // A new session of the same name numbers its events from 1 again.
                        follower = try SessionFollower(connection: connection, session: session, since: 0)
                        gone = false
                        kinds.formUnion(ResourceCatalog.Kind.allCases)
                    }
                }
                item = try follower.next(timeoutMs: 0)
            }
            since = follower.lastSeq
            if !kinds.isEmpty, !context.isStopping { changed(kinds) }
        }
    }
}
