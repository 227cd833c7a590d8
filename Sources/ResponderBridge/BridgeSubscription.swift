import Foundation
import ResponderClient
import ResponderJSON
import ResponderProtocol
import Synchronization

/// One `bridge.subscribe`: a thread of its own follows the session gap-free (SessionFollower: its own
/// subscriber and its own connection for replays) and writes each event as an `event` notification. Gaps it
/// fills from the replay ring are announced by `bridge.recovered` before the events they bring back.
///
/// Stopping is decided under the writer's lock, the same lock every notification is written under: once
/// `stop` returns, no notification of this subscription can follow (the `bridge.unsubscribe` reply is
/// the last word).
package final class BridgeSubscription: Sendable {
    package let session: String
    private let streams: [EventStream]?
    private let since: Int?
    /// The subscribe request's id as the client wrote it; nil for a notification (never answered).
    private let requestID: [UInt8]?
    private let connector: EngineThread.Connector
    private let writer: FrameWriter
    private let onEnd: @Sendable (BridgeSubscription) -> Void
    /// Read and written only while the writer's lock is held too, so that stopping and writing cannot cross.
    private let stopped = Mutex(false)
    /// Set once `onEnd` has run (on the subscription's thread only).
    private let ended = Mutex(false)

    package init(
        session: String, streams: [EventStream]?, since: Int?, requestID: [UInt8]?, connector: EngineThread.Connector,
        writer: FrameWriter, onEnd: @escaping @Sendable (BridgeSubscription) -> Void
    ) {
        self.session = session
        self.streams = streams
        self.since = since
        self.requestID = requestID
        self.connector = connector
        self.writer = writer
        self.onEnd = onEnd
    }

    /// Follows on an EngineThread of its own, which closes its connection once the subscription ends.
    package func start() {
        do {
            _ = try EngineThread(name: "bridge-events-\(session)", connector: connector) { [self] context in
                run(context)
            }
        } catch {
            defer { end() }
            reply(.failure(RPCError(.internalError, error.description)))
        }
    }

    /// No notification of this subscription is written after this returns.
    package func stop() { writer.locked { _ in stopped.withLock { $0 = true } } }

    /// Writes `message` unless the subscription has stopped; false once it has.
    @discardableResult
    private func send(_ message: [UInt8]) -> Bool {
        writer.locked { write in
            guard !stopped.withLock({ $0 }) else { return false }
            write(message)
            return true
        }
    }

    private func reply(_ outcome: Result<JSON, RPCError>) {
        guard let requestID else { return }  // a notification: carried out, never answered
        switch outcome {
        case .success(let result): send(ExactID.reply(RPCResponse.result(id: .null, result), id: requestID))
        case .failure(let error): send(ExactID.reply(RPCResponse.error(id: .null, error), id: requestID))
        }
    }

    @discardableResult
    private func notify(_ method: String, _ params: JSON) -> Bool {
        send(JSONCodec.encode(["jsonrpc": "2.0", "method": .string(method), "params": params]))
    }

    /// Leaves the registry: before `bridge.ended` is written, so that a client reacting to it (subscribing
    /// again, unsubscribing) no longer finds this subscription.
    private func end() {
        guard
            !ended.withLock({ e in
                defer { e = true }; return e
            })
        else { return }
        onEnd(self)
    }

    private func run(_ context: EngineThread.Context) {
        defer { end() }
        var answered = false
        do throws(ClientError) {
            let connection = try context.connection()
            // Start from where the session is now, or from the client's own seq: a replay ring lookup rather
            // than a snapshot, which the client takes itself if it wants one (and may hold a large world).
            var from = since ?? 0
            if since == nil {
                from = try connection.send(TraceReplayRequest(session: session, after: Int(1 << 52))).seq
            }
            let follower = try SessionFollower(connection: connection, session: session, streams: streams, since: from)
            reply(.success(["session": .string(session), "seq": JSON(from)]))
            answered = true
            try follow(follower)
        } catch {
            let rpcError: RPCError
            if case .rpc(let e) = error { rpcError = e } else { rpcError = RPCError(.internalError, error.description) }
            if !answered {
                reply(.failure(rpcError))
            } else {
                end()
                notify("bridge.ended", ["session": .string(session), "reason": .string(error.description)])
                FileHandle.standardError.write(
                    Data("bridge: events of \(session) stopped: \(error.description)\n".utf8))
            }
        }
    }

    private func follow(_ follower: SessionFollower) throws(ClientError) {
        // The follower's seq before each item: where an expired stream jumped from.
        var last = follower.lastSeq
        while true {
            guard let item = try follower.next(timeoutMs: 200) else {
                if writer.locked({ _ in stopped.withLock { $0 } }) { return }
                continue
            }
            let sent: Bool
            switch item {
            case .event(let e):
                sent = notify("event", ["topic": .string(e.topic), "event": e.body])
            case .recovered(let after, let through, let count):
                sent = notify(
                    "bridge.recovered",
                    ["session": .string(session), "after": JSON(after), "through": JSON(through), "count": JSON(count)])
            case .snapshot(let s):
                // REPLAY_EXPIRED: the events after `last` are gone; the stream goes on from the new state.
                sent = notify(
                    "bridge.recovered",
                    [
                        "session": .string(session), "after": JSON(last), "through": JSON(s.seq), "count": 0,
                        "expired": true
                    ])
            case .system(let e):
                guard e.topic == "$sys/sessions", e.body["session"]?.stringValue == session,
                    e.body["action"]?.stringValue == "deleted"
                else { continue }
                // The session is over; so is the subscription, and the client is told why.
                end()
                if notify("event", ["topic": .string(e.topic), "event": e.body]) {
                    notify("bridge.ended", ["session": .string(session), "reason": "deleted"])
                }
                return
            }
            if !sent { return }
            last = follower.lastSeq
        }
    }
}
