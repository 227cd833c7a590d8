import ResponderProtocol

/// Follows one session without ever silently missing an event (the join procedure of Protocol/README.md):
/// subscribe and wait for the welcome, take `session.snapshot`, then deliver events in seq order — dropping
/// those the snapshot already holds, recovering gaps with `trace.replay`, and re-snapshotting when the
/// engine no longer holds what was missed (REPLAY_EXPIRED).
public final class SessionFollower {
    public enum Item {
        /// The state to start from (first, and again after REPLAY_EXPIRED).
        case snapshot(JSON)
        /// The next event in seq order.
        case event(EngineEvent)
        /// A gap was found and filled from the replay ring.
        case recovered(after: Int, through: Int, count: Int)
        /// A `$sys/` event (tick, sessions).
        case system(EngineEvent)

        /// Frees the item's JSON without recursion (a snapshot or a tree event holds the whole world); call it
        /// when done with an item.
        public mutating func release() {
            var body: JSON
            switch self {
            case .snapshot(let s): body = s
            case .event(let e), .system(let e): body = e.body
            case .recovered: return
            }
            self = .recovered(after: 0, through: 0, count: 0)  // `body` now holds the JSON alone
            JSON.release(&body)
        }
    }

    public let session: String
    private let connection: ResponderConnection
    private let subscriber: EventSubscriber
    /// The seq of the last event delivered (or held by the snapshot).
    public private(set) var lastSeq: Int
    private var pending: [Item] = []
    private let streams: Set<String>?

    /// Joins from a fresh snapshot, or — with `since` — replays the history after that seq first.
    /// `receiveHighWaterMark` bounds the events queued on this side (0: unbounded, the default, so that only
    /// the engine's own high-water mark can drop anything).
    public init(connection: ResponderConnection, session: String, streams: [String]? = nil, since: Int? = nil,
                receiveHighWaterMark: Int = 0) throws(ClientError) {
        self.session = session
        self.connection = connection
        // Seqs run across all of a session's streams, so the follower always receives every stream (a
        // filtered subscription would look like gaps) and filters what it hands out instead.
        self.streams = streams.map(Set.init)
        subscriber = try EventSubscriber(address: connection.address, topics: ["\(session)/"], receiveHighWaterMark: receiveHighWaterMark)
        lastSeq = 0
        if let since {
            lastSeq = since
            try recover(through: nil)
        } else {
            try resnapshot()
        }
    }

    deinit {
        // Items not handed out yet can hold the whole world: free them without recursion.
        for i in pending.indices { pending[i].release() }
    }

    private func resnapshot() throws(ClientError) {
        let snapshot = try connection.call("session.snapshot", ["session": .string(session)])
        lastSeq = snapshot["seq"]?.intValue ?? 0
        pending.append(.snapshot(snapshot))
    }

    /// Fetches events after `lastSeq` from the replay ring until caught up (or through `through`). The
    /// `.recovered` report comes before the events it recovered.
    private func recover(through: Int?) throws(ClientError) {
        let from = lastSeq
        var recovered: [Item] = []
        while true {
            var reply: JSON
            do {
                reply = try connection.call("trace.replay", ["session": .string(session), "after": JSON(lastSeq)])
            } catch {
                if case .rpc(let e) = error, e.name == .replayExpired {
                    try resnapshot()
                    return
                }
                throw error
            }
            for entry in reply["events"]?.arrayValue ?? [] {
                guard let body = entry["event"], let seq = body["seq"]?.intValue, seq == lastSeq + 1 else { continue }
                lastSeq = seq
                recovered.append(.event(EngineEvent(topic: entry["topic"]?.stringValue ?? "", body: body)))
            }
            let complete = reply["complete"]?.boolValue ?? true
            JSON.release(&reply)  // what was not recovered (the events kept are shared and stay whole)
            if complete { break }
            if let through, lastSeq >= through { break }
        }
        guard !recovered.isEmpty else { return }
        pending.append(.recovered(after: from, through: lastSeq, count: recovered.count))
        pending.append(contentsOf: recovered)
    }

    /// The next item, or nil if nothing arrives within `timeoutMs`. With `streams`, events of other streams
    /// are followed (for seq continuity) but not returned.
    public func next(timeoutMs: Int) throws(ClientError) -> Item? {
        while true {
            while !pending.isEmpty {
                var item = pending.removeFirst()
                var unwanted = false
                if case .event(let e) = item, let streams { unwanted = !streams.contains(e.stream ?? "") }
                if unwanted {
                    item.release()
                    continue
                }
                return item
            }
            guard var event = try subscriber.next(timeoutMs: timeoutMs) else { return nil }
            if event.isSys {
                // A tick that shows a later seq than ours means we lost the tail: recover it now.
                if event.topic == "$sys/tick", let latest = event.body["sessions"]?[session]?.intValue, latest > lastSeq {
                    try recover(through: latest)
                }
                pending.append(.system(event))
                continue
            }
            guard event.session == session, let seq = event.seq else {
                event.release()
                continue
            }
            if seq > lastSeq + 1 { try recover(through: seq) }
            if seq == lastSeq + 1 {
                lastSeq = seq
                pending.append(.event(event))
            } else {
                event.release()  // already held by the snapshot or recovered
            }
        }
    }
}
