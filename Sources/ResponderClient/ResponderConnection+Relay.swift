import Foundation
import ResponderProtocol
import ZMQ

/// Pass-through for a relay such as `responder bridge`: request bodies go to the engine exactly as a client
/// wrote them (its ids, its params, its mistakes), and reply bodies come back exactly as the engine wrote them.
/// The engine answers in request order, so a relay needs no id bookkeeping of its own. Do not mix with `send`
/// on the same connection once forwarding has begun: `send` skips replies that are not its own.
extension ResponderConnection {
    /// Sends one request body unchanged (waiting up to `timeoutSeconds` while it cannot be queued; a refused
    /// handshake is reported).
    public func forward(_ body: [UInt8]) throws(ClientError) {
        try queue(
            [[], body], method: "a forwarded request", timeout: timeoutSeconds,
            deadline: Date().addingTimeInterval(timeoutSeconds))
    }

    /// The reply bodies that have arrived, waiting up to `timeoutMs` (-1: forever) for the first one, or until
    /// `waker` is woken (then possibly none). Each is the last frame of an engine reply, byte for byte.
    public func forwardedReplies(timeoutMs: Int, wakingOn waker: RelayWaker) throws(ClientError) -> [[UInt8]] {
        do {
            let ready = try ZMQ.poll(
                items: [.socket(socket, .readable), waker.pollWaker.pollItem], timeoutMs: timeoutMs)
            if ready.contains(where: { $0.index == 1 }) { waker.pollWaker.drain() }
            var replies: [[UInt8]] = []
            // Everything already queued, so that a burst of replies costs one poll.
            while let frames = try socket.receiveMultipart(dontWait: true) {
                if let last = frames.last { replies.append(last) }
            }
            return replies
        } catch {
            throw .transport("receive failed: \(error)")
        }
    }
}

/// Wakes a thread waiting in `forwardedReplies` (from any thread): there is a request to forward.
public final class RelayWaker: Sendable {
    let pollWaker: PollWaker

    public init() throws(ClientError) {
        do { pollWaker = try PollWaker() } catch { throw .transport("cannot create a wake-up pipe: \(error)") }
    }

    public func wake() { pollWaker.wake() }
}
