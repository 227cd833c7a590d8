import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// One published event: its topic and body. The body is held (a tree event holds the whole world), so an
/// event is freed without recursion wherever its last copy goes.
public struct EngineEvent: Sendable {
    public var topic: String
    @Held public var body: JSON

    public init(topic: String, body: JSON) {
        self.topic = topic
        self.body = body
    }
    public var session: String? { body["session"]?.stringValue }
    public var stream: String? { body["stream"]?.stringValue }
    public var seq: Int? { body["seq"]?.intValue }
    public var isSys: Bool { topic.hasPrefix("$sys/") }

}

/// A SUB socket on the engine's events. `init` returns once the engine's welcome message has arrived: the
/// connection is up, though the subscriptions may still be on their way (Protocol/README 13.1); a gap-free
/// reader recovers anything they missed by seq (SessionFollower). Not thread-safe: one owner.
public final class EventSubscriber {
    private let context: ZMQContext
    private let socket: ZMQSocket
    private let handshakes: HandshakeWatch

    /// `topics` are prefixes such as "default/" or "default/trace"; `$sys/` events are always received.
    public init(
        address: EngineAddress, topics: [String], welcomeTimeoutSeconds: Double = 10, receiveHighWaterMark: Int = 0
    ) throws(ClientError) {
        let curve = try ClientKeys.credentials(for: address)
        do {
            context = try ZMQContext()
            socket = try ZMQSocket(context: context, type: .sub)
            if let curve {
                try socket.setCurveClient(serverKey: curve.server, publicKey: curve.public, secretKey: curve.secret)
            }
            try socket.setLinger(0)
            try socket.setReceiveHWM(receiveHighWaterMark)
            // `$sys/` last: subscriptions reach the engine in order, so a `$sys/tick` received proves them all live.
            for t in topics { try socket.subscribe(t) }
            try socket.subscribe("$sys/")
            handshakes = try HandshakeWatch(context: context, socket: socket, address: address)
            try socket.connect(address.events)
        } catch {
            throw .transport("cannot subscribe to \(address.events): \(error)")
        }
        let deadline = Date().addingTimeInterval(welcomeTimeoutSeconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timeout(method: "subscription welcome", seconds: welcomeTimeoutSeconds) }
            guard let frames = try receiveFrames(timeoutMs: Int(left * 1000)) else { continue }
            if frames.count == 1, frames[0] == Array("$sys/welcome".utf8) { break }
        }
    }

    deinit {
        handshakes.close()
        socket.close()
        context.terminate()
    }

    private func receiveFrames(timeoutMs: Int) throws(ClientError) -> [[UInt8]]? {
        let deadline = timeoutMs < 0 ? nil : Date().addingTimeInterval(Double(timeoutMs) / 1000)
        while true {
            let wait = deadline.map { max(0, Int(($0.timeIntervalSinceNow * 1000).rounded(.up))) } ?? -1
            let ready: [PollResult]
            do { ready = try ZMQ.poll(items: [.socket(socket, .readable), handshakes.pollItem], timeoutMs: wait) } catch
            {
                throw .transport("receive failed: \(error)")
            }
            // A refused handshake never brings the welcome: say so now.
            if ready.contains(where: { $0.index == 1 }) { try handshakes.check() }
            if ready.contains(where: { $0.index == 0 }) {
                do { return try socket.receiveMultipart(dontWait: true) } catch {
                    throw .transport("receive failed: \(error)")
                }
            }
            if ready.isEmpty || wait == 0 { return nil }
        }
    }

    /// The next event, or nil when none arrives within `timeoutMs` (-1 waits forever). Welcome frames are skipped.
    public func next(timeoutMs: Int) throws(ClientError) -> EngineEvent? {
        while true {
            guard let frames = try receiveFrames(timeoutMs: timeoutMs) else { return nil }
            guard frames.count == 2 else { continue }
            let topic = String(decoding: frames[0], as: UTF8.self)
            do {
                return EngineEvent(topic: topic, body: try JSONCodec.decode(frames[1]))
            } catch {
                throw .badReply("event on \(topic) is not valid JSON: \(error)")
            }
        }
    }
}
