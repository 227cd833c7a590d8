import Foundation
import ResponderClient
import ResponderProtocol
import Synchronization

/// The bridge's connection to the engine, on an EngineThread of its own (libzmq sockets have one owner, and a
/// blocking poll belongs on a thread of its own): it forwards request bodies in the order they arrived and
/// writes each reply to stdout as it comes, byte for byte. The engine answers in order, so requests can be
/// pipelined without the relay matching ids.
///
/// The relay exits the process when the engine goes away or is replaced (its discovery file is gone, or names
/// another pid): requests in flight would never be answered, and an editor restarts a server that exits.
package final class EngineRelay: Sendable {
    /// The name the bridge gives its connections (client.hello): events its requests cause name it, until
    /// the editor names the connection itself with a client.hello of its own.
    package static let clientName = "responder-bridge"

    fileprivate struct Counts {
        /// Bodies submitted and not yet forwarded.
        var queued = 0
        /// Requests forwarded (or queued) whose reply has not come yet.
        var awaiting = 0
        /// Set by `stop`: a body submitted after it is dropped rather than taken for a lost engine.
        var stopped = false
    }

    private let thread: EngineThread
    private let shared = RelayCounts()

    /// How often the relay checks that the engine it talks to is still the one running.
    private static let checkSeconds: Double = 5

    /// Connects on the relay's thread before it returns, so that an engine that cannot be reached (or refuses
    /// the connection) is the caller's error, said before anything is relayed. `locate` finds the engine now,
    /// to notice a restart.
    package init(
        connector: EngineThread.Connector, writer: FrameWriter, ids: ExactID,
        locate: @escaping @Sendable () throws(ClientError) -> EngineAddress
    ) throws(ClientError) {
        let counts = shared
        thread = try EngineThread(name: "bridge-relay", connector: connector) { context in
            Self.run(context, writer: writer, ids: ids, counts: counts, locate: locate)
        }
        try thread.performAndWait { _ in }
    }

    /// Queues a request body for the engine (any thread). `expectsReply`: whether the engine will answer it
    /// (everything but a well-formed notification), so that `finish` knows what to wait for.
    package func submit(_ body: [UInt8], expectsReply: Bool) {
        shared.counts.withLock { c in
            c.queued += 1
            if expectsReply { c.awaiting += 1 }
        }
        let counts = shared
        thread.submit { connection in
            do throws(ClientError) {
                try connection.get().forward(body)
            } catch {
                if !counts.counts.withLock({ $0.stopped }) { Self.fail("error: \(error.description)") }
            }
            counts.counts.withLock { $0.queued -= 1 }
        }
    }

    /// Stops relaying and closes the connection. The bridge exits instead; a caller that lives on stops it.
    package func stop() {
        shared.counts.withLock { $0.stopped = true }
        thread.stopAndWait()
    }

    /// Waits until every reply expected has been written, or `timeout` seconds; false on timeout.
    package func finish(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if shared.counts.withLock({ $0.awaiting == 0 && $0.queued == 0 }) { return true }
            usleep(5_000)
        }
        return false
    }

    private static func run(
        _ context: EngineThread.Context, writer: FrameWriter, ids: ExactID, counts: RelayCounts,
        locate: @Sendable () throws(ClientError) -> EngineAddress
    ) {
        var lastCheck = Date()
        while context.runJobs() {
            guard let connection = context.current else {
                context.wait()
                continue
            }
            do {
                let replies = try connection.forwardedReplies(timeoutMs: 1000, wakingOn: context.waker)
                for reply in replies { writer.write(ids.restore(reply)) }
                if !replies.isEmpty { counts.counts.withLock { $0.awaiting = max(0, $0.awaiting - replies.count) } }
            } catch {
                fail("error: \(error.description)")
            }
            guard Date().timeIntervalSince(lastCheck) > checkSeconds else { continue }
            lastCheck = Date()
            do {
                let now = try locate()
                if let startPid = connection.address.pid, let pid = now.pid, pid != startPid {
                    fail("error: the engine was restarted (pid \(startPid), now \(pid)); requests in flight are lost")
                }
            } catch {
                fail("error: \(error.description)")
            }
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}

/// What the relay's thread and the threads that submit share.
private final class RelayCounts: Sendable {
    let counts = Mutex(EngineRelay.Counts())
}
