import Foundation
import Logging
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing
import ZMQ

@testable import ResponderServer

/// `RequestServer` in memory, as swift-nio's EmbeddedChannel tests a pipeline: requests are queued on an
/// in-memory port, the state store is a dictionary that can be told to fail, and every reply, commit and
/// published event lands in one log, in the order the server did them. No socket and no SQLite; the offload
/// worker is the real one (a thread and a pipe).
@Suite("RequestServer in memory")
struct RequestServerTests {
    @Test("group commit: the requests served together are committed once, and only then replied to and published")
    func groupCommit() throws {
        let s = try EmbeddedServer()
        defer { s.close() }
        s.port.queue("c1", id: 1, "event.tap", #"{"point":[20,20]}"#)
        s.port.queue("c2", id: 2, "tree.apply", #"{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}}]}"#)
        s.port.queue("c1", id: 3, "event.tap", #"{"point":[50,420]}"#)
        #expect(s.server.serveReady(s.port))

        #expect(s.store.commits == 1)
        #expect(s.port.replies.map(\.id) == [1, 2, 3])
        #expect(s.port.replies.map(\.client) == ["c1", "c2", "c1"])
        #expect(s.port.replies.allSatisfy { $0.body["result"] != nil }, "\(s.port.replies)")
        // Everything the group wrote comes before its one commit; every event and reply after it.
        let commit = try #require(s.log.entries.firstIndex(of: "commit"))
        #expect(s.log.entries[..<commit].allSatisfy { $0.hasPrefix("save ") }, "\(s.log.entries)")
        #expect(s.log.entries[..<commit].count == 3, "\(s.log.entries)")
        #expect(
            s.log.entries[(commit + 1)...].allSatisfy { $0.hasPrefix("event ") || $0.hasPrefix("reply ") },
            "\(s.log.entries)")
        // Events go out before the replies that report them, in request order.
        #expect(s.published.topics == ["default/trace", "default/tree", "default/trace"])
        #expect(s.log.entries.last == "reply c1 3")
        let host = try #require(s.state.sessions["default"])
        #expect(s.store.committed["default"] == MemoryStore.Saved(host))

        // The next group is a commit of its own.
        s.port.queue("c2", id: 4, "event.tap", #"{"point":[20,20]}"#)
        #expect(s.server.serveReady(s.port))
        #expect(s.store.commits == 2)
        #expect(s.port.replies.map(\.id) == [1, 2, 3, 4])
    }

    enum StoreFault: CaseIterable, Sendable {
        case save, commit
    }

    @Test(
        "a group whose state cannot be saved is rolled back: the store is as before, nothing is replied or published",
        arguments: StoreFault.allCases)
    func failedGroupIsRolledBack(fault: StoreFault) throws {
        let s = try EmbeddedServer()
        defer { s.close() }
        s.port.queue("c1", id: 1, "event.tap", #"{"point":[20,20]}"#)
        #expect(s.server.serveReady(s.port))
        let before = s.store.committed
        let replied = s.port.replies.count
        let published = s.published.topics.count
        #expect(replied == 1 && published == 1)

        switch fault {
        case .save: s.store.failSaves = true
        case .commit: s.store.failCommits = true
        }
        s.port.queue("c1", id: 2, "tree.apply", #"{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}}]}"#)
        s.port.queue("c2", id: 3, "event.tap", #"{"point":[50,420]}"#)
        _ = s.server.serveReady(s.port)

        #expect(s.store.committed == before)
        #expect(s.store.rollbacks == 1)
        #expect(s.port.replies.count == replied, "\(s.port.replies)")
        #expect(s.published.topics.count == published, "\(s.published.topics)")
        let failure = try #require(s.server.failure)
        #expect(
            failure.contains(
                fault == .save ? "cannot save the state in memory:" : "cannot commit the state in memory:"),
            "\(failure)")
        // The engine stops rather than acknowledge anything it could not save: later requests get no reply.
        s.store.failSaves = false
        s.store.failCommits = false
        s.port.queue("c2", id: 4, "event.tap", #"{"point":[20,20]}"#)
        _ = s.server.serveReady(s.port)
        #expect(s.port.replies.count == replied)
        #expect(s.store.committed == before)
    }

    @Test(
        "a group that cannot be saved on a full disk is undone and refused with STORAGE_FULL; reads are answered, and writes again once there is room"
    )
    func fullDiskRefusesTheGroupAndGoesOn() throws {
        let s = try EmbeddedServer()
        defer { s.close() }
        s.port.queue("c1", id: 1, "event.tap", #"{"point":[20,20]}"#)
        #expect(s.server.serveReady(s.port))
        let host = try #require(s.state.sessions["default"])
        let before = (revision: host.revision, seq: host.seq, world: WorldSnapshot.encode(host.state.world).tree)
        let published = s.published.topics.count

        s.store.full = true
        s.port.queue("c1", id: 2, "tree.apply", #"{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}}]}"#)
        s.port.queue("c2", id: 3, "session.create", #"{"session":"new"}"#)
        #expect(s.server.serveReady(s.port))
        #expect(s.server.failure == nil, "a full disk does not stop the engine")
        #expect(
            s.port.replies.suffix(2).map { $0.body["error"]?["data"]?["name"]?.stringValue } == [
                "STORAGE_FULL", "STORAGE_FULL"
            ])
        #expect(s.published.topics.count == published, "nothing of the refused group is published")
        let now = try #require(s.state.sessions["default"])
        #expect(now.revision == before.revision && now.seq == before.seq)
        #expect(WorldSnapshot.encode(now.state.world).tree == before.world)
        #expect(s.state.sessions["new"] == nil)

        // A read alone is answered while the disk stays full.
        s.port.queue("c2", id: 4, "tree.get", "{}")
        #expect(s.server.serveReady(s.port))
        #expect(s.port.replies.last?.body["result"] != nil, "\(String(describing: s.port.replies.last))")

        // With room again, writes are saved and answered.
        s.store.full = false
        s.port.queue("c1", id: 5, "tree.apply", #"{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}}]}"#)
        #expect(s.server.serveReady(s.port))
        #expect(s.port.replies.last?.body["result"]?["revision"]?.intValue == before.revision + 1)
        #expect(s.store.committed["default"]?.revision == before.revision + 1)
    }

    @Test(
        "a failed batch in a group: its client gets the error, the tree and the store keep their revision, it publishes nothing"
    )
    func failedBatchInAGroup() throws {
        let s = try EmbeddedServer()
        defer { s.close() }
        let host = try #require(s.state.sessions["default"])
        let revision = host.revision
        let world = WorldSnapshot.encode(host.state.world).tree
        // The batch's first op would apply; its second names no node, so neither does.
        s.port.queue("c1", id: 1, "event.tap", #"{"point":[20,20]}"#)
        s.port.queue(
            "c2", id: 2, "tree.apply",
            #"{"ops":[{"op":"update","id":"A","set":{"alpha":0.5}},{"op":"update","id":"nowhere","set":{"alpha":0.5}}]}"#
        )
        s.port.queue("c1", id: 3, "event.tap", #"{"point":[50,420]}"#)
        #expect(s.server.serveReady(s.port))

        #expect(s.port.replies.map(\.id) == [1, 2, 3])
        #expect(s.port.replies[1].body["error"]?["data"]?["name"] == "NODE_NOT_FOUND", "\(s.port.replies[1].body)")
        #expect(s.port.replies[0].body["result"] != nil && s.port.replies[2].body["result"] != nil)
        #expect(s.published.topics == ["default/trace", "default/trace"])
        #expect(host.revision == revision)
        #expect(WorldSnapshot.encode(host.state.world).tree == world)
        // The taps' progress is committed, in one commit; the tree in the store is the one before the batch.
        #expect(s.store.commits == 1)
        #expect(s.store.committed["default"]?.revision == revision)
        #expect(s.store.committed["default"]?.world == world)
    }

    @Test("offload ordering: a client's requests after a large one wait for it; other clients are answered meanwhile")
    func offloadKeepsEachClientsOrder() throws {
        let s = try EmbeddedServer(offloadBytes: 4096)
        defer { s.close() }
        // A batch above the offload size that puts N0 under (340, 340); the same client's tap there must find it.
        let padding = (1...60).map {
            #"{"op":"insert","parent":"R","node":{"id":"P\#($0)","kind":"view","frame":[0,0,1,1]}}"#
        }
        let large =
            #"{"ops":["#
            + (padding + [#"{"op":"insert","parent":"R","node":{"id":"N0","kind":"view","frame":[320,320,50,50]}}"#])
            .joined(separator: ",") + "]}"
        #expect(large.utf8.count >= 4096)
        s.port.queue("slow", id: 1, "tree.apply", large)
        s.port.queue("slow", id: 2, "event.tap", #"{"point":[340,340]}"#)
        s.port.queue("other", id: 3, "event.tap", #"{"point":[20,20]}"#)
        #expect(s.server.serveReady(s.port))
        // Only the other client's request could be answered: the large one is still being read.
        #expect(s.port.replies.map(\.id) == [3])
        #expect(s.published.topics == ["default/trace"])

        try s.serveOffloaded(until: { s.port.replies.count == 3 })
        #expect(s.port.replies.map(\.id) == [3, 1, 2])
        #expect(s.port.replies[1].body["result"] != nil, "\(s.port.replies[1].body)")
        #expect(s.port.replies[2].body["result"]?["deliveries"]?[0]?["view"] == "N0", "\(s.port.replies[2].body)")
        #expect(s.published.topics == ["default/trace", "default/tree", "default/trace"])
        #expect(
            s.published.seqs == s.published.seqs.sorted() && Set(s.published.seqs).count == 3, "\(s.published.seqs)")
        // The read request and the one that waited for it are a group of their own, committed before their replies.
        #expect(s.store.commits == 2)
        let second = try #require(s.log.entries.lastIndex(of: "commit"))
        #expect(
            s.log.entries[(second + 1)...].elementsEqual([
                "event default/tree", "event default/trace", "reply slow 1", "reply slow 2"
            ]),
            "\(s.log.entries)")
    }
}

/// Everything the server did, in the order it did it, across the port, the store and the event sink.
final class ServerLog {
    var entries: [String] = []
}

/// The rpc socket in memory: messages queued by the test as a DEALER would send them, replies kept in order.
final class MemoryPort: RequestPort {
    let log: ServerLog
    private var inbox: [[[UInt8]]] = []
    private(set) var replies: [(client: String, id: Int?, body: JSON)] = []

    init(log: ServerLog) { self.log = log }

    func queue(_ client: String, id: Int, _ method: String, _ params: String) {
        let body = #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
        inbox.append([Array(client.utf8), [], Array(body.utf8)])
    }

    func receiveFrames(
        dontWait: Bool, property: ZMQProperty?, read: (UnsafePointer<CChar>) -> Void,
        frame: (_ index: Int, _ bytes: UnsafeRawBufferPointer, _ last: Bool) -> Void
    ) throws(ZMQError) -> Int? {
        guard !inbox.isEmpty else { return nil }
        let frames = inbox.removeFirst()
        for (i, bytes) in frames.enumerated() {
            bytes.withUnsafeBytes { frame(i, $0, i == frames.count - 1) }
        }
        return frames.count
    }

    func send(routingID: [UInt8], delimiter: Bool, body: WrittenText, dontWait: Bool) throws(ZMQError) -> Bool {
        let client = String(decoding: routingID, as: UTF8.self)
        let json = (try? JSONCodec.decode(body.bytes)) ?? .null
        let id = json["id"]?.intValue
        replies.append((client, id, json))
        log.entries.append("reply \(client) \(id.map(String.init) ?? "-")")
        return true
    }
}

/// The state store in memory: what each session's last save wrote, kept once committed. It commits only
/// after a write, as the SQLite store does, and fails its saves or commits when told to.
final class MemoryStore: GroupStore {
    struct Saved: Equatable {
        var revision: Int
        var seq: Int
        var world: [UInt8]

        init(_ host: SessionHost) {
            revision = host.revision
            seq = host.seq
            world = WorldSnapshot.encode(host.state.world).tree
        }
    }

    let path = "memory"
    let log: ServerLog
    var failSaves = false
    var failCommits = false
    /// Saves fail as SQLite's do on a full disk (SQLITE_FULL).
    var full = false
    /// What each session was when last committed, to put it back.
    private var committedHosts: [String: (state: SessionState, seq: Int)] = [:]
    private(set) var committed: [String: Saved] = [:]
    private(set) var commits = 0
    private(set) var rollbacks = 0
    /// The open transaction's writes, in order (nil: a deletion); nil when none is open.
    private var pending: [(name: String, saved: Saved?, host: SessionHost?)]?

    init(log: ServerLog) { self.log = log }

    func save(_ host: SessionHost, records: [TreeRecord]) throws(SQLiteError) {
        // A write opens the transaction before it can fail, as SQLite's BEGIN comes before the INSERT.
        pending = pending ?? []
        if failSaves { throw SQLiteError(code: 10, message: "disk I/O error") }
        if full { throw SQLiteError(code: 13, message: "database or disk is full") }
        pending?.append((host.name, Saved(host), host))
        log.entries.append("save \(host.name)")
    }

    func delete(_ name: String) throws(SQLiteError) {
        pending = pending ?? []
        if failSaves { throw SQLiteError(code: 10, message: "disk I/O error") }
        if full { throw SQLiteError(code: 13, message: "database or disk is full") }
        pending?.append((name, nil, nil))
        log.entries.append("delete \(name)")
    }

    func commit() throws(SQLiteError) {
        guard let writes = pending else { return }
        if failCommits { throw SQLiteError(code: 10, message: "disk I/O error") }
        for write in writes { committed[write.name] = write.saved }
        for write in writes { committedHosts[write.name] = write.host.map { ($0.state, $0.seq) } }
        pending = nil
        commits += 1
        log.entries.append("commit")
    }

    func rollback() {
        guard pending != nil else { return }
        pending = nil
        rollbacks += 1
        log.entries.append("rollback")
    }

    func abandon() {
        pending = nil
        rollbacks += 1
        log.entries.append("rollback")
    }

    func committed(_ names: Set<String>, replayBuffer: Int, replayBytes: Int) throws(EngineError) -> [String:
        SessionHost]
    {
        var hosts: [String: SessionHost] = [:]
        for name in names {
            guard let kept = committedHosts[name] else { continue }
            hosts[name] = SessionHost(name: name, state: kept.state, replayBuffer: replayBuffer, seq: kept.seq)
        }
        return hosts
    }
}

/// Receives what the server publishes once it lets events go (after the commit).
final class PublishedEvents: EventSink {
    let log: ServerLog
    private(set) var topics: [String] = []
    private(set) var seqs: [Int] = []

    init(log: ServerLog) { self.log = log }

    func send(topic: [UInt8], body: [UInt8]) {
        let name = String(decoding: topic, as: UTF8.self)
        // The engine's own `$sys/` events are not a session's, and not held for a commit.
        guard !name.hasPrefix("$sys/") else { return }
        topics.append(name)
        if let seq = (try? JSONCodec.decode(body))?["seq"]?.intValue { seqs.append(seq) }
        log.entries.append("event \(name)")
    }
}

/// A `RequestServer` over the Fixtures world with a store, as a durable engine runs it, on in-memory parts.
final class EmbeddedServer {
    let log = ServerLog()
    let port: MemoryPort
    let store: MemoryStore
    let published: PublishedEvents
    let state: EngineState
    let server: RequestServer<MemoryStore>
    private let waker: PollWaker
    private let worker: OffloadWorker

    init(offloadBytes: Int = 256 << 10) throws {
        var config = EngineConfig(
            name: "embedded", directory: "/nonexistent", rpcEndpoint: "inproc://rpc", eventsEndpoint: "inproc://events",
            initialWorld: Fixtures.world)
        config.offloadBytes = offloadBytes
        port = MemoryPort(log: log)
        store = MemoryStore(log: log)
        published = PublishedEvents(log: log)
        let held = HeldEventSink(published)
        state = try EngineState(config: config, sink: held, now: Date())
        state.journal = ChangeJournal()
        waker = try PollWaker()
        worker = OffloadWorker(limits: config.limits, waker: waker)
        // A failed save is logged as critical: not the test's output.
        let logger = Logger(label: "embedded", factory: { _ in SwiftLogNoOpLogHandler() })
        server = RequestServer(state: state, store: store, events: held, worker: worker, logger: logger)
    }

    /// Serves what the offload worker reads, as the engine loop does when the worker wakes it, until `done`.
    func serveOffloaded(until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(patienceSeconds)
        while !done() {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else {
                throw TestEngineError("the offload worker did not finish within \(patienceSeconds) s")
            }
            var item = pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&item, 1, left)
            _ = waker.drain()
            server.serveRead(port)
            _ = server.serveReady(port)
        }
    }

    func close() {
        worker.stop()
        waker.close()
    }
}
