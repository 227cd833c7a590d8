import Dispatch
import Foundation
import ResponderProtocol
import Synchronization
import ZMQ

/// A thread of its own that owns one engine connection. libzmq sockets have one owner and their calls block:
/// the connection is created, used and closed on this thread alone, so no socket changes hands and no blocking
/// call holds a thread of Swift's cooperative pool. Other threads and async code hand it jobs (`perform`,
/// `submit`), which run one at a time in the order given.
///
/// The thread runs a body: by default it waits for jobs and runs them; a front door that also follows events
/// or relays replies passes its own, written against `Context` (connect, run the jobs queued, wait to be woken).
/// `stop` ends the body; the jobs it left fail, and the thread closes the connection (its sockets before its
/// context) as it ends, which `stopAndWait` waits for. The thread keeps its EngineThread alive until it ends, so
/// one that is no longer wanted must be stopped, not just let go.
public final class EngineThread: Sendable {
    /// How the thread finds the engine and names its connection (client.hello).
    public struct Connector: Sendable {
        /// Where the engine is, found when the thread connects (a discovery file, an endpoint given, …).
        public var locate: @Sendable () throws(ClientError) -> EngineAddress
        /// Seconds to wait for each reply.
        public var timeoutSeconds: Double
        /// The client.hello name and kind; nil sends no hello.
        public var clientName: String?
        public var kind: String?
        /// Whether each job finds the engine again first, and connects anew when its address changed (an
        /// engine restarted): a long-lived server that may start before the engine and outlive it. Otherwise the
        /// thread keeps its first connection until the body drops it.
        public var followsEngine: Bool

        public init(
            timeoutSeconds: Double, clientName: String?, kind: String?, followsEngine: Bool = false,
            locate: @escaping @Sendable () throws(ClientError) -> EngineAddress
        ) {
            self.locate = locate
            self.timeoutSeconds = timeoutSeconds
            self.clientName = clientName
            self.kind = kind
            self.followsEngine = followsEngine
        }

        /// The same name, the engine found by `locate`.
        public func finding(_ locate: @escaping @Sendable () throws(ClientError) -> EngineAddress) -> Connector {
            var copy = self
            copy.locate = locate
            return copy
        }

        /// The same engine, another name for the connection.
        public func named(_ clientName: String?, kind: String?) -> Connector {
            var copy = self
            copy.clientName = clientName
            copy.kind = kind
            return copy
        }

        /// Sends client.hello with `name` (the connector's unless given). `kind` is an engine extension: a
        /// refusal of it is answered by naming the connection without it.
        public func hello(_ connection: ResponderConnection, name: String? = nil) throws(ClientError) {
            guard let name = name ?? clientName else { return }
            do {
                _ = try connection.send(ClientHelloRequest(name: name, kind: kind))
            } catch .rpc where kind != nil {
                _ = try? connection.send(ClientHelloRequest(name: name))
            } catch {
                throw error
            }
        }
    }

    /// The thread's side: the connection and the queue, for the body. Used on the thread alone.
    public final class Context {
        private let owner: EngineThread
        /// The connection, once made.
        public private(set) var current: ResponderConnection?
        /// The client.hello name in effect (`EngineThread.rename` changes it).
        fileprivate var clientName: String?

        fileprivate init(owner: EngineThread) {
            self.owner = owner
            clientName = owner.connector.clientName
        }

        /// Wakes the thread from `wait` or from a poll on it (`ResponderConnection.forwardedReplies`): a job
        /// was queued, or `stop` was called.
        public var waker: RelayWaker { owner.waker }

        /// True once `stop` was called: the body returns.
        public var isStopping: Bool { owner.shared.withLock { $0.stopping } }

        fileprivate var hasEnded: Bool { owner.shared.withLock { $0.stopping || $0.ended } }

        /// The connection, made (and introduced by client.hello) if there is none yet, or made anew if the
        /// connector follows the engine and it moved.
        public func connection() throws(ClientError) -> ResponderConnection {
            let connector = owner.connector
            if let current, !connector.followsEngine { return current }
            let address = try connector.locate()
            if let current, current.address == address { return current }
            disconnect()
            let fresh = try ResponderConnection(address: address, timeoutSeconds: connector.timeoutSeconds)
            try connector.hello(fresh, name: clientName)
            current = fresh
            return fresh
        }

        /// Closes the connection (its sockets, then its context); the next `connection()` makes a new one.
        public func disconnect() { current = nil }

        /// Runs the jobs queued so far, in order; false once the thread is stopping.
        @discardableResult
        public func runJobs() -> Bool {
            while let job = owner.shared.withLock({ s in s.jobs.isEmpty ? nil : s.jobs.removeFirst() }) {
                job(self)
            }
            return !isStopping
        }

        /// Waits until a job is queued or the thread is stopping, or `seconds` (nil: no limit); false once
        /// stopping.
        @discardableResult
        public func wait(seconds: Double? = nil) -> Bool {
            let deadline = seconds.map { Date().addingTimeInterval($0) }
            while true {
                if owner.shared.withLock({ $0.stopping || !$0.jobs.isEmpty }) { return !isStopping }
                var timeoutMs = -1
                if let deadline {
                    timeoutMs = Int((deadline.timeIntervalSinceNow * 1000).rounded(.up))
                    if timeoutMs <= 0 { return !isStopping }
                }
                _ = try? ZMQ.poll(items: [owner.waker.pollWaker.pollItem], timeoutMs: timeoutMs)
                owner.waker.pollWaker.drain()
            }
        }
    }

    private struct Shared {
        var jobs: [@Sendable (Context) -> Void] = []
        var stopping = false
        var ended = false
    }

    public let connector: Connector
    private let shared = Mutex(Shared())
    fileprivate let waker: RelayWaker
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread that runs jobs as they come, connecting when the first one needs the connection.
    public convenience init(name: String, connector: Connector) throws(ClientError) {
        try self.init(name: name, connector: connector) { context in
            while context.wait() { context.runJobs() }
        }
    }

    /// Starts a thread that runs `body` with its context; the thread ends when `body` returns.
    public init(name: String, connector: Connector, body: @escaping @Sendable (Context) -> Void) throws(ClientError) {
        self.connector = connector
        waker = try RelayWaker()
        let thread = Thread { [self] in
            let context = Context(owner: self)
            body(context)
            // Jobs left when the body ended are told so, rather than waiting forever.
            let left = shared.withLock { s in
                s.ended = true
                defer { s.jobs = [] }
                return s.jobs
            }
            context.disconnect()
            let stopped = Context(owner: self)
            for job in left { job(stopped) }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread with the connection and returns its result. A connection that cannot be made
    /// is the job's error.
    public func perform<T: Sendable>(_ job: @escaping @Sendable (ResponderConnection) throws(ClientError) -> T)
        async throws(ClientError) -> T
    {
        let outcome: Result<T, ClientError> = await withCheckedContinuation { continuation in
            enqueue { context in
                continuation.resume(
                    returning: Result { () throws(ClientError) -> T in try job(try context.liveConnection()) })
            }
        }
        return try outcome.get()
    }

    /// As `perform`, for a caller that is not async: blocks the calling thread until the job has run. Never
    /// call it from the thread's own body or from Swift's cooperative pool.
    public func performAndWait<T: Sendable>(_ job: @escaping @Sendable (ResponderConnection) throws(ClientError) -> T)
        throws(ClientError) -> T
    {
        let outcome = Handoff<Result<T, ClientError>>()
        enqueue { context in
            outcome.put(Result { () throws(ClientError) -> T in try job(try context.liveConnection()) })
        }
        return try outcome.take().get()
    }

    /// Queues `job` and returns at once (any thread). It runs with the connection, or with the error that kept
    /// it from being made.
    public func submit(_ job: @escaping @Sendable (Result<ResponderConnection, ClientError>) -> Void) {
        enqueue { context in
            job(Result { () throws(ClientError) -> ResponderConnection in try context.liveConnection() })
        }
    }

    /// Names the connection (client.hello) from now on, and now if it is connected. Returns once done.
    public func rename(_ clientName: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue { context in
                context.clientName = clientName
                if let connection = context.current, !context.isStopping {
                    try? self.connector.hello(connection, name: clientName)
                }
                continuation.resume()
            }
        }
    }

    /// Asks the thread to end, from any thread (its own body too): the body sees `isStopping` and returns, the
    /// jobs it left fail, and the thread closes its connection (its sockets before its context).
    public func stop() {
        shared.withLock { $0.stopping = true }
        waker.wake()
    }

    /// `stop`, then waits until the thread has ended and closed its connection. Never from the thread's own
    /// body, nor from Swift's cooperative pool.
    public func stopAndWait() {
        stop()
        finished.wait()
        finished.signal()  // a second wait returns too
    }

    private func enqueue(_ job: @escaping @Sendable (Context) -> Void) {
        let ended = shared.withLock { s -> Bool in
            if !s.ended { s.jobs.append(job) }
            return s.ended
        }
        if ended {
            // The thread is gone: run the job here, where it can only learn that.
            job(Context(owner: self))
        } else {
            waker.wake()
        }
    }
}

extension EngineThread.Context {
    /// The connection for a job: none once the thread is stopping or has ended.
    fileprivate func liveConnection() throws(ClientError) -> ResponderConnection {
        if hasEnded { throw .transport("the engine connection's thread has stopped") }
        return try connection()
    }
}

/// One value handed from the thread to a caller blocked waiting for it.
private final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ new: Value) {
        value.withLock { $0 = new }
        ready.signal()
    }

    func take() -> Value {
        ready.wait()
        return value.withLock { $0! }
    }
}
