import Foundation
import Logging
import ResponderJSON
import ResponderProtocol
import ZMQ

/// The connection property the ZAP handler sets: who, and which connection.
private let userIDProperty = ZMQProperty("User-Id")

/// Serves the rpc socket on the engine thread, a group at a time: every request ready is answered, the
/// group's changes are committed once (group commit), and only then do its events and replies go out. Without
/// a store there is nothing to commit, and each reply goes out as soon as it is made.
/// A large request is read by the `OffloadWorker` meanwhile; the same client's later requests wait behind it
/// so that each client's replies keep their order. `Store` is the engine's `StateStore`; generic rather than an
/// existential so that the engine's server calls it directly, while tests serve with a store in memory.
///
/// Its state is read and written on the engine thread only, each access ending before the next begins (no
/// handler reaches back into the server), so its properties are unchecked: a checked access of a class's
/// property is a runtime call, and a request takes a dozen of them between receiving and sending.
final class RequestServer<Store: GroupStore> {
    private let processor: RequestProcessor
    private let state: EngineState
    private let store: Store?
    private let events: HeldEventSink?
    private let worker: OffloadWorker
    private let logger: Logger
    /// Replies waiting for the group's commit: to whom, with the envelope their request came in.
    @exclusivity(unchecked) private var outgoing: [(routingID: [UInt8], delimiter: Bool, body: WrittenText)] = []
    /// Clients with a request being read off-thread → their requests received since, in order.
    @exclusivity(unchecked) private var waiting: [[UInt8]: [OffloadWorker.Job]] = [:]
    /// Bytes of the requests in `waiting`, per client and in all, against `--max-queued-bytes(-total)`.
    @exclusivity(unchecked) private var queuedBytes: [[UInt8]: Int] = [:]
    @exclusivity(unchecked) private var queuedTotal = 0
    /// Requests refused since the last tick because too much was queued.
    @exclusivity(unchecked) private var refusedQueued = 0
    /// Replies dropped since the last tick because their client's queue was full (`--reply-hwm`, section 10).
    @exclusivity(unchecked) private var droppedReplies = 0
    /// Set when the state could not be saved: the engine stops rather than acknowledge what is not on disk.
    @exclusivity(unchecked) private(set) var failure: String?
    /// Set when the group could not be saved because the disk is full: the group is undone and refused
    /// (`STORAGE_FULL`), and the engine goes on.
    @exclusivity(unchecked) private var storageFull: SQLiteError?
    /// The sessions the group being served wrote (repeats kept: they are hashed into a set only when a full disk
    /// needs them, not on every request), and the reply ids of `outgoing`, for undoing and refusing the group.
    @exclusivity(unchecked) private var groupSessions: [String] = []
    @exclusivity(unchecked) private var outgoingIDs: [(id: JSON, idText: [UInt8]?)?] = []
    /// Whether the last group found the disk full (logged once until a commit succeeds again).
    @exclusivity(unchecked) private var diskFull = false
    /// The last "User-Id" read and its stamp: a connection's messages all carry the same one.
    @exclusivity(unchecked) private var lastUserID: [CChar] = []
    @exclusivity(unchecked) private var lastPeer: PeerStamp?
    /// The last routing id received: a client's requests all carry the same one, kept rather than copied anew.
    @exclusivity(unchecked) private var lastRoutingID: [UInt8] = []

    init(state: EngineState, store: Store?, events: HeldEventSink?, worker: OffloadWorker, logger: Logger) {
        processor = RequestProcessor(state: state)
        self.state = state
        self.store = store
        self.events = events
        self.worker = worker
        self.logger = logger
    }

    /// Answers the requests waiting on the ROUTER a group at a time (each group committed once) until a
    /// receive after the last group's replies finds nothing: a send may take in what the socket's descriptor
    /// announced, so only a receive that would block leaves the descriptor meaning "something new" (the
    /// engine loop waits on it). Returns false when it stopped after a few full groups with more perhaps
    /// waiting, so that a flood cannot starve the loop's other sockets: the loop then comes back at once.
    func serveReady(_ rpc: some RequestPort) -> Bool {
        for _ in 0..<4 {
            let group = receiveGroup(rpc)
            guard group.received > 0 else { return true }
            deliver(rpc)
            // Without a store each reply went out as soon as it was made, before the receive that found the
            // socket empty: nothing has been sent since, so that receive is the rule's last word.
            if store == nil && group.emptied { return true }
        }
        return false
    }

    /// Receives and answers up to 256 waiting requests; their replies and events wait for `deliver` (with a
    /// store: the group is committed first), or go out at once (without one). `emptied`: it stopped at a
    /// receive that found nothing.
    private func receiveGroup(_ rpc: some RequestPort) -> (received: Int, emptied: Bool) {
        var received = 0
        while received < 256 {
            var routingID: [UInt8] = []
            var secondEmpty = false
            var body: [UInt8] = []
            let count: Int
            var peer: PeerStamp?
            do {
                // User-Id: the connection as the ZAP handler admitted it (who, and which connection).
                guard
                    let n = try rpc.receiveFrames(
                        dontWait: true, property: userIDProperty, read: { peer = peerStamp($0) },
                        frame: { i, bytes, last in
                            if i == 0 { routingID = sameRoutingID(bytes) }
                            if i == 1 { secondEmpty = bytes.isEmpty }
                            // [routing id][empty delimiter]?[body]: a longer message is dropped, its body not copied.
                            if last, i > 0, i <= 2 { body = Array(bytes) }
                        })
                else { return (received, true) }
                count = n
            } catch {
                log(.error, "receive failed: \(error)")
                break
            }
            received += 1
            events?.holding = true
            guard count >= 2 else { continue }
            let hasDelimiter = count >= 3 && secondEmpty
            guard count == (hasDelimiter ? 3 : 2) else {
                log(.debug, "dropping a request with \(count) frames")
                continue
            }
            accept(OffloadWorker.Job(routingID: routingID, delimiter: hasDelimiter, body: body, peer: peer))
            // Without a store there is no group to commit: the reply goes out now, not after the receive that
            // finds the socket empty (a system call on every round trip's path).
            if store == nil { deliver(rpc) }
        }
        return (received, false)
    }

    /// `bytes` as an array: the last routing id's when they are the same.
    private func sameRoutingID(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        // Compared with memcmp: `elementsEqual` goes byte by byte through the generic sequence code.
        if bytes.count == lastRoutingID.count,
            bytes.isEmpty
                || lastRoutingID.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return lastRoutingID
        }
        lastRoutingID = Array(bytes)
        return lastRoutingID
    }

    /// The connection of a request as the ZAP handler named it, read again only when it changed.
    private func peerStamp(_ userID: UnsafePointer<CChar>) -> PeerStamp? {
        let length = strlen(userID)
        if length == lastUserID.count,
            length == 0 || lastUserID.withUnsafeBufferPointer({ memcmp($0.baseAddress!, userID, length) == 0 })
        {
            return lastPeer
        }
        lastUserID = Array(UnsafeBufferPointer(start: userID, count: length))
        lastPeer = PeerStamp(userID: String(cString: userID))
        return lastPeer
    }

    /// Serves the requests the worker has finished reading, then what their clients sent meanwhile.
    func serveRead(_ rpc: some RequestPort) {
        var done = worker.takeDone()
        guard !done.isEmpty else { return }
        events?.holding = true
        for i in done.indices {
            let d = (routingID: done[i].routingID, delimiter: done[i].delimiter)
            serve(&done[i].parsed, d.routingID, d.delimiter, done[i].peer)
            var queued = waiting.removeValue(forKey: d.routingID) ?? []
            while !queued.isEmpty, waiting[d.routingID] == nil { accept(unqueue(queued.removeFirst())) }
            if !queued.isEmpty { waiting[d.routingID, default: []].append(contentsOf: queued) }
        }
        deliver(rpc)
        done.removeAll()
        MemoryTrim.afterLargeRequest()
    }

    func takeRefusedQueued() -> Int {
        defer { refusedQueued = 0 }
        return refusedQueued
    }

    func takeDroppedReplies() -> Int {
        defer { droppedReplies = 0 }
        return droppedReplies
    }

    private func accept(_ job: OffloadWorker.Job) {
        // Empty but while a large request is read: no routing id hashed for nothing.
        if !waiting.isEmpty, waiting[job.routingID] != nil {
            waiting[job.routingID]!.append(queue(job))
        } else if let refusal = job.refusal {
            // Answered in its place among the client's replies, with id null: it was never read.
            var parsed = ParsedRequest.unreadable(id: .null, idText: nil, refusal)
            serve(&parsed, job.routingID, job.delimiter, job.peer)
        } else if job.body.count >= state.config.offloadBytes {
            waiting[job.routingID] = []
            worker.submit(job)
        } else {
            var parsed = RequestProcessor.parse(job.body, limits: state.config.limits)
            serve(&parsed, job.routingID, job.delimiter, job.peer)
        }
    }

    /// Counts a request held behind its client's request being read, or keeps only its place (a refusal) when
    /// it would take the client or all clients over their bound.
    private func queue(_ job: OffloadWorker.Job) -> OffloadWorker.Job {
        let bounds = state.config.bounds
        let mine = queuedBytes[job.routingID, default: 0]
        var limit: (name: String, max: Int, what: String)?
        if mine + job.body.count > bounds.queuedBytesPerClient {
            limit = ("queuedBytes", bounds.queuedBytesPerClient, "this client's")
        } else if queuedTotal + job.body.count > bounds.queuedBytesTotal {
            limit = ("queuedBytesTotal", bounds.queuedBytesTotal, "all clients'")
        }
        guard let limit else {
            queuedBytes[job.routingID] = mine + job.body.count
            queuedTotal += job.body.count
            return job
        }
        refusedQueued += 1
        var refused = job
        refused.body = []
        refused.refusal = RPCError(
            .limitExceeded,
            "the request is \(job.body.count) bytes and \(limit.what) requests waiting behind a request being read hold more than \(limit.max) with it",
            [("limit", .string(limit.name)), ("max", JSON(limit.max))])
        return refused
    }

    /// A queued request leaves the queue to be served.
    private func unqueue(_ job: OffloadWorker.Job) -> OffloadWorker.Job {
        guard !job.body.isEmpty else { return job }
        queuedTotal -= job.body.count
        let left = queuedBytes[job.routingID, default: 0] - job.body.count
        queuedBytes[job.routingID] = left > 0 ? left : nil
        return job
    }

    private func serve(_ parsed: inout ParsedRequest, _ routingID: [UInt8], _ delimiter: Bool, _ peer: PeerStamp?) {
        guard failure == nil else {
            parsed.release()
            return
        }
        let replyID = store == nil ? nil : parsed.replyID
        let reply = processor.run(&parsed, from: routingID, peer: peer, now: Date())
        if let store, let journal = state.journal, !journal.isEmpty {
            groupSessions.append(contentsOf: journal.sessionNames)
            if storageFull != nil {
                journal.forget()
            } else {
                do { try journal.write(to: store) } catch {
                    if error.isStorageFull {
                        storageFull = error
                    } else {
                        failure = "cannot save the state in \(store.path): \(error)"
                        return
                    }
                }
            }
        }
        guard let reply else { return }
        outgoing.append((routingID, delimiter, reply))
        if store != nil { outgoingIDs.append(replyID) }
    }

    /// Undoes a group whose changes could not be saved because the disk is full: the sessions it wrote go back to
    /// what was last committed, its events are dropped, and each of its requests is answered `STORAGE_FULL`
    /// (one that only read may have seen a change now undone, so it is refused too; alone it is answered).
    private func refuseGroup(_ full: SQLiteError) {
        guard let store else { return }
        store.abandon()
        events?.discard()
        let touched = Set(groupSessions)
        do {
            let committed = try store.committed(
                touched, replayBuffer: state.config.replayBuffer, replayBytes: state.config.bounds.replayBytes)
            state.putBack(touched, committed)
        } catch {
            failure = "cannot read back the saved state in \(store.path) after a full disk: \(error)"
            return
        }
        let refusal = RPCError(
            .storageFull,
            "the state in \(store.path) cannot be written (\(full.message)): this request changed nothing; requests that only read are still answered",
            [("path", .string(store.path))])
        for i in outgoing.indices {
            guard let id = outgoingIDs[i] else { continue }
            outgoing[i].body = RequestProcessor.errorReply(id: id.id, idText: id.idText, refusal)
        }
        if !diskFull {
            diskFull = true
            logger.error(
                "the state in \(store.path) cannot be written (\(full)): requests that write are refused with STORAGE_FULL until it can"
            )
        }
    }

    /// Commits the group, then sends its events and replies; a failed commit sends nothing of the group.
    private func deliver(_ rpc: some RequestPort) {
        defer {
            // Emptied only when not empty: an empty array's `removeAll(keepingCapacity:)` still does its range's
            // work, and without a store these stay empty.
            if !groupSessions.isEmpty { groupSessions.removeAll(keepingCapacity: true) }
            if !outgoingIDs.isEmpty { outgoingIDs.removeAll(keepingCapacity: true) }
        }
        if failure == nil, storageFull == nil, let store {
            do { try store.commit() } catch {
                if error.isStorageFull {
                    storageFull = error
                } else {
                    failure = "cannot commit the state in \(store.path): \(error)"
                }
            }
        }
        if failure == nil, let full = storageFull {
            storageFull = nil
            refuseGroup(full)
        } else if failure == nil, diskFull, !groupSessions.isEmpty {
            diskFull = false
            log(.notice, "the state is saved again: requests that write are served")
        }
        if let failure {
            store?.rollback()
            events?.discard()
            outgoing.removeAll(keepingCapacity: true)
            log(.critical, "\(failure); stopping so that nothing unsaved is acknowledged")
            return
        }
        events?.release()
        for out in outgoing {
            // Not queued: the client's reply queue is full (it does not read), so the reply is dropped (section 10).
            do {
                if try !rpc.send(routingID: out.routingID, delimiter: out.delimiter, body: out.body, dontWait: true) {
                    droppedReplies += 1
                }
            } catch {
                log(.debug, "reply not delivered: \(error)")
            }
        }
        // Without a store there is one reply a call: `removeLast` frees it without `removeAll`'s range work.
        if outgoing.count == 1 {
            outgoing.removeLast()
        } else if !outgoing.isEmpty {
            outgoing.removeAll(keepingCapacity: true)
        }
    }

    // The logging below is kept out of the request path's functions: reading the logger's handler is a checked
    // access (a runtime call), which the compiler hoists to the top of a function that may log.

    @inline(never)
    private func log(_ level: Logger.Level, _ message: String) {
        logger.log(level: level, "\(message)")
    }
}
