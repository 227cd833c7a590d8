import Foundation
import ResponderCore
import ResponderProtocol
import Synchronization
import ZMQ

/// One thread that reads large requests (`ParsedRequest.prepare`) so the engine thread keeps answering
/// everyone else meanwhile. It touches no socket and no session: it gets bytes and gives back a read request,
/// waking the engine's poll. Stopping abandons whatever it is reading.
final class OffloadWorker: Sendable {
    struct Job: Sendable {
        var routingID: [UInt8]
        var delimiter: Bool
        var body: [UInt8]
        var peer: PeerStamp?
        /// Why it is answered unread: it came when too much was queued (`--max-queued-bytes`), so its body is gone.
        var refusal: RPCError? = nil
    }

    /// Sendable by hand-over: the reader thread builds a `Done`, puts it in the locked queue and keeps no reference
    /// to it (nor to anything its parsed request holds); the engine thread is its only owner from `takeDone` on.
    struct Done: @unchecked Sendable {
        var routingID: [UInt8]
        var delimiter: Bool
        var parsed: ParsedRequest
        var peer: PeerStamp?
    }

    private let queue = Mutex<(jobs: [Job], done: [Done], stopped: Bool)>(([], [], false))
    private let ready = DispatchSemaphore(value: 0)

    init(limits: Limits, waker: PollWaker) {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let job = queue.withLock({ $0.stopped || $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) else {
                    if queue.withLock({ $0.stopped }) { return }
                    continue
                }
                // Handed over, not copied: whoever holds a request last frees it, iteratively (`release`).
                let leftovers = Leftovers()
                var done = Done(
                    routingID: job.routingID, delimiter: job.delimiter,
                    parsed: ParsedRequest.prepare(job.body, limits: limits, leftovers: leftovers), peer: job.peer)
                var handed: Done? = done
                done.parsed.release()
                let kept = queue.withLock { q in
                    guard !q.stopped, let d = handed.take() else { return false }
                    q.done.append(d)
                    return true
                }
                guard kept else {
                    handed?.parsed.release()
                    leftovers.release()
                    return
                }
                waker.wake()
                leftovers.release()
                MemoryTrim.afterLargeRequest()
            }
        }
        thread.name = "responderd-reader"
        thread.start()
    }

    func submit(_ job: Job) {
        queue.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    /// The requests read since the last call, in the order they were finished.
    func takeDone() -> [Done] {
        queue.withLock { q in
            defer { q.done.removeAll() }
            return q.done
        }
    }

    /// Abandons queued and in-flight reading; the thread ends once its current read returns.
    func stop() {
        queue.withLock { $0 = ([], [], true) }
        ready.signal()
    }
}
