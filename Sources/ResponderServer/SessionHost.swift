import ResponderCore
import ResponderJSON
import ResponderProtocol

/// A session as the engine holds it: the pure state, the event sequence and the replay ring.
final class SessionHost {
    let name: String
    var state: SessionState
    /// The seq of the last event published for this session (0: none yet).
    private(set) var seq = 0
    private(set) var log: EventLog
    /// The session held a world before its first event that no event describes (the `default` session of an
    /// engine started with a world file): its history cannot be replayed from seq 0.
    var worldBeforeFirstEvent = false
    /// `session.create`'s `owner` token: only requests carrying it change the tree or delete the session.
    var ownerToken: String?
    /// The hit tester's buffers, kept between hitTest requests (their room made once), and the last one's answer
    /// by slot until its reply is written. Unchecked: only the hitTest method reaches it, one access at a time on
    /// the engine's thread, and each checked access of a class's property costs about as much as a view asked.
    @exclusivity(unchecked) var hitScratch = HitTestScratch()
    /// The topics made so far (`topic`), a few streams at most. Unchecked, as `hitScratch`: read on the engine's
    /// thread only, each access over before the next.
    @exclusivity(unchecked) private var topics: [(stream: String, bytes: [UInt8])] = []

    /// `seq`: the last seq a restored session had published; its next event continues after it.
    init(
        name: String, state: SessionState, replayBuffer: Int, replayBytes: Int = .max, budget: ReplayBudget? = nil,
        seq: Int = 0
    ) {
        self.name = name
        self.state = state
        self.seq = seq
        self.log = EventLog(capacity: replayBuffer, maxBytes: replayBytes, budget: budget)
    }

    /// The ring's events go with the session: their bytes no longer count against the engine's total.
    deinit { log.leaveBudget() }

    /// Counts the replay ring against the engine's total (a session restored before the engine's state existed).
    func shareReplay(_ budget: ReplayBudget) { log.share(budget) }

    var revision: Int { state.world.revision }

    /// `body` of the state where it is kept, for a query. Called on `host.state` (`host.state.firstResponder()`),
    /// a query would copy the whole state first, a retain and a release for each reference it holds: the
    /// compiler cannot tell that a call into the core leaves a class's property alone, but it can for an inout.
    func query<R, E: Error>(_ body: (inout SessionState) throws(E) -> R) throws(E) -> R { try body(&state) }

    /// Numbers, encodes and records one event; returns (topic, body) for the publisher.
    /// `payload` members follow the common header; `raw` members are already-encoded JSON values.
    func record(
        stream: String, epoch: String, cause: Cause, payload: [(key: String, value: JSON)],
        raw: [(key: String, value: [UInt8])] = []
    ) -> EventLog.Entry {
        seq += 1
        let head = eventHead(seq: seq, stream: stream, epoch: epoch, cause: cause, payload: payload).bytes
        let entry = EventLog.Entry(seq: seq, topic: topic(stream), body: EventText.compose(head: head, members: raw))
        log.append(entry)
        return entry
    }

    /// Numbers and records an event as what writes its `deferred` members (`DeferredEvent`), not as its text.
    /// `minimumSize`: at least the bytes they would take, counted against the ring while the text is unwritten.
    /// `write`: the text is written now too (for subscribers; returned), and the ring counts its exact size.
    func recordDeferred(
        stream: String, epoch: String, cause: Cause, payload: [(key: String, value: JSON)],
        deferred: [(key: String, write: () -> [UInt8])], minimumSize: Int, write: Bool
    ) -> (entry: EventLog.Entry, text: [UInt8]?) {
        seq += 1
        // The head too is written only when the text is: an event no one reads now (a `trace: "none"` dispatch
        // with no subscriber) writes nothing.
        let head = eventHead(seq: seq, stream: stream, epoch: epoch, cause: cause, payload: payload)
        let text = write ? EventText.compose(head: head.bytes, members: deferred.map { ($0.key, $0.write()) }) : nil
        let event = DeferredEvent(
            head: head, members: deferred, minimumSize: text?.count ?? head.leastSize + minimumSize)
        let entry = EventLog.Entry(seq: seq, topic: topic(stream), text: .deferred(event))
        log.append(entry)
        return (entry, text)
    }

    /// The head of the next event (the common members, open) written into `w`, for an event whose text its
    /// caller writes in one piece after it (members and the closing brace); `record(stream:text:)` then numbers
    /// and keeps it. The seq is taken only then: an event its caller gives up on leaves no gap.
    func writeNextHead(stream: String, epoch: String, cause: Cause, to w: inout JSONWriter) {
        eventHead(seq: seq + 1, stream: stream, epoch: epoch, cause: cause, payload: []).write(to: &w)
    }

    /// Numbers and records an event written whole, its head from `writeNextHead`.
    func record(stream: String, text: [UInt8]) -> EventLog.Entry {
        seq += 1
        let entry = EventLog.Entry(seq: seq, topic: topic(stream), body: text)
        log.append(entry)
        return entry
    }

    /// `<session>/<stream>`: made once per stream and kept, since a dispatch asks for its trace topic up to three
    /// times (who may receive it, and the event itself), each a string made and copied into an array.
    func topic(_ stream: String) -> [UInt8] {
        for known in topics where known.stream == stream { return known.bytes }
        let bytes = Array("\(name)/\(stream)".utf8)
        topics.append((stream, bytes))
        return bytes
    }

    /// The head of this session's event `seq`, of the world as it is now.
    private func eventHead(seq: Int, stream: String, epoch: String, cause: Cause, payload: [(key: String, value: JSON)])
        -> EventHead
    {
        EventHead(
            session: name, stream: stream, seq: seq, revision: revision, epoch: epoch, cause: cause, payload: payload)
    }
}

/// The members every event of a session begins with, in order: what they say, to be written now or when a kept
/// event's text is first asked for (`DeferredEvent`).
struct EventHead {
    let session: String
    let stream: String
    let seq: Int
    let revision: Int
    let epoch: String
    let cause: Cause
    let payload: [(key: String, value: JSON)]

    /// The event object's common members and `payload`, left open.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "session"); w.string(session)
        w.key(static: "stream"); w.string(stream)
        w.key(static: "seq"); w.number(Double(seq))
        w.key(static: "revision"); w.number(Double(revision))
        w.key(static: "epoch"); w.string(epoch)
        w.key(static: "cause"); cause.write(to: &w)
        for (k, v) in payload {
            w.key(k)
            w.value(v)
        }
    }

    var bytes: [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.takeBytes()
    }

    /// No more than the bytes `write` takes: its keys, quotes and punctuation, the strings' own bytes, one digit
    /// per number and one byte of request id. What the replay ring counts for a head not yet written.
    var leastSize: Int {
        #"{"session":"","stream":"","seq":0,"revision":0,"epoch":"","cause":{"client":"","request":0}"#.utf8.count
            + session.utf8.count + stream.utf8.count + epoch.utf8.count + cause.client.utf8.count
    }
}
