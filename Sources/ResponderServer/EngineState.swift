import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

/// Where published events go: the XPUB socket in the engine, a list in tests.
protocol EventSink: AnyObject {
    func send(topic: [UInt8], body: [UInt8])
    /// Whether an event on `topic` may reach a subscriber now; false only when certainly not (an event nobody
    /// can receive need not be written, only kept for replay).
    func mayDeliver(topic: [UInt8]) -> Bool
    /// Reads the subscriptions that arrived since the last call.
    func drainSubscriptions()
}

extension EventSink {
    func mayDeliver(topic: [UInt8]) -> Bool { true }
    func drainSubscriptions() {}
}

/// Everything the engine thread owns besides its sockets: sessions, clients, identity. Handlers run against
/// it one request at a time, so it needs no locks.
final class EngineState {
    let config: EngineConfig
    let startedAt: Date
    var sessions: [String: SessionHost] = [:] {
        // Any change may remove or replace the session `lastSession` holds.
        didSet { lastSession = nil }
    }
    /// The session `session(named:)` last found. Unchecked, as the request server's state is: only the engine
    /// thread reads and writes it, each access over before the next.
    @exclusivity(unchecked) private var lastSession: SessionHost?
    private(set) var clients: [[UInt8]: ClientInfo] = [:]
    /// The client of the last request (`client(for:)`).
    private var lastClient: ClientInfo?
    let sink: EventSink
    /// Seq of engine-wide `$sys/` events.
    private(set) var sysSeq = 0
    /// New at each start of the engine, in every event, snapshot and engine.info: a client that sees it change
    /// knows the engine restarted (live touches are gone, older events no longer replay) and re-snapshots.
    let epoch = Epoch.make()
    /// What the current request changed, for the state store; nil when nothing is kept (ephemeral).
    var journal: ChangeJournal?
    /// Bytes of events in every session's replay ring together (`--replay-bytes-total`).
    let replayBudget: ReplayBudget

    /// `initial`: the default session's state, from `initialSession(config)` (read before anything is bound,
    /// so that a bad world file leaves nothing behind); nil reads it here.
    init(config: EngineConfig, sink: EventSink, now: Date, initial: SessionState? = nil, restored: [SessionHost] = [])
        throws(RPCError)
    {
        self.config = config
        self.sink = sink
        self.startedAt = now
        replayBudget = ReplayBudget(maxBytes: config.bounds.replayBytesTotal)
        for host in restored {
            host.shareReplay(replayBudget)
            sessions[host.name] = host
        }
        // A restored `default` is the one the engine had; the configuration's world is only for a first start.
        guard sessions["default"] == nil else { return }
        let state: SessionState
        if let initial { state = initial } else { state = try Self.initialSession(config) }
        let host = SessionHost(
            name: "default", state: state, replayBuffer: config.replayBuffer, replayBytes: config.bounds.replayBytes,
            budget: replayBudget)
        // Its world at seq 0 is in no event: replaying from 0 cannot rebuild it (Protocol/README.md 14.1).
        host.worldBeforeFirstEvent = config.initialWorld != nil
        sessions["default"] = host
    }

    /// The `default` session's state at start: the configuration's initial world (a world file, field paths
    /// from its top: `tree.children[0].frame`), or an application with no children.
    static func initialSession(_ config: EngineConfig) throws(RPCError) -> SessionState {
        var state = SessionState()
        if let initial = config.initialWorld {
            let file = try WireDecoder.decode(WorldFile.self, from: initial)
            _ = try core { () throws(CoreError) in
                try state.load(tree: file.tree, detached: file.detached ?? [], limits: config.limits)
            }
        }
        return state
    }

    /// Puts the sessions named back as `committed` holds them; a name it lacks had no saved session.
    func putBack(_ names: Set<String>, _ committed: [String: SessionHost]) {
        for name in names {
            if let host = committed[name] {
                host.shareReplay(replayBudget)
                sessions[name] = host
            } else {
                sessions[name] = nil
            }
        }
    }

    /// The session named `name`, nil when there is none. A tool addresses the same session request after request:
    /// the last one found is compared by name before the table is hashed.
    func session(named name: String) -> SessionHost? {
        if let last = lastSession, last.name == name { return last }
        let found = sessions[name]
        lastSession = found
        return found
    }

    func client(for routingID: [UInt8], now: Date) -> ClientInfo {
        // A tool sends request after request on one connection: the last client is compared before the table
        // is hashed. It is in the table: only `forgetIdleClients` removes clients, and it clears this.
        if let c = lastClient, c.routingID == routingID {
            c.lastSeen = now
            return c
        }
        let c = findClient(routingID, now: now)
        lastClient = c
        return c
    }

    private func findClient(_ routingID: [UInt8], now: Date) -> ClientInfo {
        if let c = clients[routingID] {
            c.lastSeen = now
            return c
        }
        let c = ClientInfo(routingID: routingID, now: now)
        clients[routingID] = c
        return c
    }

    /// Forgets clients silent for longer than the idle window (session.clients no longer lists them): a peer that
    /// reconnects under new routing ids again and again must not grow the table for ever.
    func forgetIdleClients(now: Date) {
        let cutoff = now.addingTimeInterval(-config.clientIdleSeconds)
        clients = clients.filter { $0.value.lastSeen >= cutoff }
        lastClient = nil
    }

    /// Records and sends one session event; returns its seq.
    @discardableResult
    func publish(
        _ session: SessionHost, stream: String, cause: Cause, payload: [(key: String, value: JSON)],
        raw: [(key: String, value: [UInt8])] = []
    ) -> Int {
        let entry = session.record(stream: stream, epoch: epoch, cause: cause, payload: payload, raw: raw)
        journal?.touched(session)
        sink.send(topic: entry.topic, body: entry.body)
        return entry.seq
    }

    /// Records an event as what writes its `deferred` members (see `EventText`), not as its text; `send`: writes
    /// it and sends it too (someone may receive it now).
    func publishDeferred(
        _ session: SessionHost, stream: String, cause: Cause, payload: [(key: String, value: JSON)],
        deferred: [(key: String, write: () -> [UInt8])], minimumSize: Int, send: Bool
    ) -> Int {
        let (entry, text) = session.recordDeferred(
            stream: stream, epoch: epoch, cause: cause, payload: payload, deferred: deferred, minimumSize: minimumSize,
            write: send)
        journal?.touched(session)
        if let text { sink.send(topic: entry.topic, body: text) }
        return entry.seq
    }

    /// Sends an engine-wide `$sys/<stream>` event (not replayable).
    func publishSys(stream: String, _ payload: [(key: String, value: JSON)]) {
        sysSeq += 1
        let body: JSON = .object(
            [("stream", .string(stream)), ("seq", JSON(sysSeq)), ("epoch", .string(epoch))] + payload)
        sink.send(topic: Array("$sys/\(stream)".utf8), body: JSONCodec.encode(body))
    }

    /// `$sys/tick`: each session's last seq, so an idle subscriber can notice a loss.
    func publishTick() {
        let sessionsSeq: [(key: String, value: JSON)] = sessions.keys.sorted().map { ($0, JSON(sessions[$0]!.seq)) }
        publishSys(stream: "tick", [("sessions", .object(sessionsSeq))])
    }
}

/// A world file (`responderd --world`): the params of `tree.load` without `session`.
struct WorldFile: Codable {
    var tree: NodeTree
    var detached: [NodeTree]?
}
