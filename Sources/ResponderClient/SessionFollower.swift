import ResponderProtocol

/// Follows one session without ever silently missing an event (the join procedure of Protocol/README.md):
/// subscribe and wait for the welcome, take `session.snapshot`, then deliver events in seq order — dropping
/// those the snapshot already holds, recovering gaps with `trace.replay`, and re-snapshotting when the
/// engine no longer holds what was missed (REPLAY_EXPIRED).
public final class SessionFollower {
    public enum Item {
        /// The state to start from (first, and again after REPLAY_EXPIRED).
        case snapshot(SessionSnapshotRequest.Response)
        /// The next event in seq order.
        case event(EngineEvent)
        /// A gap was found and filled from the replay ring.
        case recovered(after: Int, through: Int, count: Int)
        /// A `$sys/` event (tick, sessions).
        case system(EngineEvent)
    }

    public let session: String
    /// Why the last snapshot was taken instead of replaying (the engine's REPLAY_EXPIRED); nil for a join.
    public private(set) var replayRefused: RPCError?
    private let connection: ResponderConnection
    private let subscriber: EventSubscriber
    /// The seq of the last event delivered (or held by the snapshot).
    public private(set) var lastSeq: Int
    private var pending: [Item] = []
    private let streams: Set<EventStream>?

    /// Joins from a fresh snapshot, or — with `since` — replays the history after that seq first.
    /// `receiveHighWaterMark` bounds the events queued on this side (0: unbounded, the default, so that only
    /// the engine's own high-water mark can drop anything).
    public init(
        connection: ResponderConnection, session: String, streams: [EventStream]? = nil, since: Int? = nil,
        receiveHighWaterMark: Int = 0
    ) throws(ClientError) {
        self.session = session
        self.connection = connection
        // Seqs run across all of a session's streams, so the follower always receives every stream (a
        // filtered subscription would look like gaps) and filters what it hands out instead.
        self.streams = streams.map(Set.init)
        subscriber = try EventSubscriber(
            address: connection.address, topics: ["\(session)/"], receiveHighWaterMark: receiveHighWaterMark)
        lastSeq = 0
        if let since {
            lastSeq = since
            try recover(through: nil)
        } else {
            try resnapshot()
        }
    }

    private func resnapshot() throws(ClientError) {
        let snapshot = try connection.send(SessionSnapshotRequest(session: session))
        lastSeq = snapshot.seq
        pending.append(.snapshot(snapshot))
    }

    /// Fetches events after `lastSeq` from the replay ring until caught up (or through `through`). The
    /// `.recovered` report comes before the events it recovered.
    private func recover(through: Int?) throws(ClientError) {
        let from = lastSeq
        var recovered: [Item] = []
        while true {
            let reply: TraceReplayRequest.Response
            do {
                reply = try connection.send(TraceReplayRequest(session: session, after: lastSeq))
            } catch {
                if case .rpc(let e) = error, e.name == .replayExpired {
                    replayRefused = e
                    try resnapshot()
                    return
                }
                throw error
            }
            for entry in reply.events {
                guard let seq = entry.event["seq"]?.intValue, seq == lastSeq + 1 else { continue }
                lastSeq = seq
                recovered.append(.event(EngineEvent(topic: entry.topic, body: entry.event)))
            }
            if reply.complete { break }
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
                let item = pending.removeFirst()
                if case .event(let e) = item, let streams, e.eventStream.map(streams.contains) != true { continue }
                return item
            }
            guard let event = try subscriber.next(timeoutMs: timeoutMs) else { return nil }
            if event.isSys {
                // A tick that shows a later seq than ours means we lost the tail: recover it now.
                if event.topic == "$sys/tick", let latest = event.body["sessions"]?[session]?.intValue, latest > lastSeq
                {
                    try recover(through: latest)
                }
                pending.append(.system(event))
                continue
            }
            guard event.session == session, let seq = event.seq else { continue }
            if seq <= lastSeq { continue }  // already held by the snapshot or recovered
            if seq > lastSeq + 1 { try recover(through: seq) }
            if seq == lastSeq + 1 {
                lastSeq = seq
                pending.append(.event(event))
            }
        }
    }
}
