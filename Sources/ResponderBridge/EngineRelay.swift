import Foundation
import ResponderClient
import ResponderProtocol
import Synchronization

/// The bridge's connection to the engine, owned by a thread of its own (libzmq sockets have one owner, and a
/// blocking poll belongs on a thread of its own): it forwards request bodies in the order they arrived and
/// writes each reply to stdout as it comes, byte for byte. The engine answers in order, so requests can be
/// pipelined without the relay matching ids.
///
/// The relay exits the process when the engine goes away or is replaced (its discovery file is gone, or names
/// another pid): requests in flight would never be answered, and an editor restarts a server that exits.
final class EngineRelay: @unchecked Sendable {
    // @unchecked: `connection` is used only on the relay thread once `start` has handed it over; everything
    // the stdin thread shares with it is in `state`.
    private let connection: ResponderConnection
    private let writer: FrameWriter
    private let waker: RelayWaker
    private let ids: ExactID
    private let locate: @Sendable () throws(ClientError) -> EngineAddress
    private let state = Mutex(State())

    private struct State {
        var outbox: [[UInt8]] = []
        /// Requests forwarded (or queued) whose reply has not come yet.
        var awaiting = 0
    }

    /// How often the relay checks that the engine it talks to is still the one running.
    private static let checkSeconds: Double = 5

    init(connection: ResponderConnection, writer: FrameWriter, ids: ExactID,
         locate: @escaping @Sendable () throws(ClientError) -> EngineAddress) throws(ClientError) {
        self.connection = connection
        self.writer = writer
        self.ids = ids
        self.locate = locate
        waker = try RelayWaker()
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "bridge-relay"
        thread.start()
    }

    /// Queues a request body for the engine (any thread). `expectsReply`: whether the engine will answer it
    /// (everything but a well-formed notification), so that `finish` knows what to wait for.
    func submit(_ body: [UInt8], expectsReply: Bool) {
        state.withLock { s in
            s.outbox.append(body)
            if expectsReply { s.awaiting += 1 }
        }
        waker.wake()
    }

    /// Waits until every reply expected has been written, or `timeout` seconds; false on timeout.
    func finish(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if state.withLock({ $0.awaiting == 0 && $0.outbox.isEmpty }) { return true }
            usleep(5_000)
        }
        return false
    }

    private func run() {
        let startPid = connection.address.pid
        var lastCheck = Date()
        while true {
            let outgoing = state.withLock { s in
                defer { s.outbox = [] }
                return s.outbox
            }
            do {
                for body in outgoing { try connection.forward(body) }
                let replies = try connection.forwardedReplies(timeoutMs: 1000, wakingOn: waker)
                for reply in replies { writer.write(ids.restore(reply)) }
                if !replies.isEmpty { state.withLock { $0.awaiting = max(0, $0.awaiting - replies.count) } }
            } catch {
                Self.fail("error: \(error.description)")
            }
            guard Date().timeIntervalSince(lastCheck) > Self.checkSeconds else { continue }
            lastCheck = Date()
            do {
                let now = try locate()
                if let startPid, let pid = now.pid, pid != startPid {
                    Self.fail("error: the engine was restarted (pid \(startPid), now \(pid)); requests in flight are lost")
                }
            } catch {
                Self.fail("error: \(error.description)")
            }
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}
