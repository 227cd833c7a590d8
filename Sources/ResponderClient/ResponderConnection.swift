import Foundation
import ResponderJSON
import ResponderProtocol
import ZMQ

/// A synchronous JSON-RPC client over a DEALER socket. Not thread-safe: one owner, like the socket.
public final class ResponderConnection {
    public let address: EngineAddress
    private let context: ZMQContext
    /// Internal rather than private: the relay (ResponderConnection+Relay.swift) uses it on the owner's thread.
    let socket: ZMQSocket
    private let handshakes: HandshakeWatch
    private var nextID = 1
    /// Seconds to wait for each reply (plus `timeoutPerMegabyte` for each million bytes the request sends).
    public var timeoutSeconds: Double
    /// Extra seconds to wait per million bytes of request: a large world takes the engine a while to read.
    public var timeoutPerMegabyte: Double = 0
    /// Told how a request goes (sending, each second without a reply, done), on the calling thread; nil: silent.
    public var progress: ((RequestProgress) -> Void)?
    /// A session owner token (Protocol/README.md 7.1), added as `owner` to the requests that take one
    /// (`SessionOwner.methods`) when they do not carry their own.
    public var sessionOwner: String?

    /// `routingID` fixes the connection's ZeroMQ routing id (its client id, protocol 14.4) so that a later
    /// connection with the same id can continue the touches and presses this one began; nil lets the engine pick.
    public init(address: EngineAddress, timeoutSeconds: Double = 10, routingID: [UInt8]? = nil) throws(ClientError) {
        self.address = address
        self.timeoutSeconds = timeoutSeconds
        let curve = try ClientKeys.credentials(for: address)
        do {
            context = try ZMQContext()
            socket = try ZMQSocket(context: context, type: .dealer)
            if let curve {
                try socket.setCurveClient(serverKey: curve.server, publicKey: curve.public, secretKey: curve.secret)
            }
            try socket.setLinger(0)
            if let routingID { try socket.setRoutingID(routingID) }
            handshakes = try HandshakeWatch(context: context, socket: socket, address: address)
            try socket.connect(address.rpc)
        } catch {
            throw .transport("cannot connect to \(address.rpc): \(error)")
        }
    }

    deinit {
        handshakes.close()
        socket.close()
        context.terminate()
    }

    /// How long to wait for the reply to a request of `bytes` bytes.
    public func timeout(forRequestBytes bytes: Int) -> Double {
        // Whole seconds for what a large request adds, so the figure reads well in a message.
        timeoutSeconds + (timeoutPerMegabyte * Double(bytes) / 1_000_000).rounded(.up)
    }

    /// Sends a request and returns the full response object (result or error). Waits up to
    /// `timeout(forRequestBytes:)`; an engine whose process (the discovery file's pid) is gone ends the wait at once.
    public func send(_ method: String, _ params: JSON = [:]) throws(ClientError) -> JSON {
        var params = params
        if let sessionOwner, SessionOwner.methods.contains(method), params["owner"] == nil, params.objectMembers != nil
        {
            params = params.setting("owner", .string(sessionOwner))
        }
        let id = nextID
        nextID += 1
        let body = JSONCodec.encode(RPCRequest(id: JSON(id), method: method, params: params).json)
        let timeout = timeout(forRequestBytes: body.count)
        progress?(.sending(method: method, bytes: body.count))
        defer { progress?(.finished(method: method)) }
        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        try queue([[], body], method: method, timeout: timeout, deadline: deadline)
        var nextReport = 1.0
        while true {
            let remaining = Int(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { throw .timeout(method: method, seconds: timeout, pid: address.pid) }
            // Wake at least once a second: to report the wait, and to notice an engine that has gone away.
            let ready: [PollResult]
            do {
                ready = try ZMQ.poll(
                    items: [.socket(socket, .readable), handshakes.pollItem], timeoutMs: min(remaining, 1000))
            } catch {
                throw .transport("poll failed: \(error)")
            }
            // A refused handshake never brings a reply: say so now.
            if ready.contains(where: { $0.index == 1 }) { try handshakes.check() }
            guard ready.contains(where: { $0.index == 0 }) else {
                if let pid = address.pid, !EngineAddress.isAlive(pid) { throw .engineGone(method: method, pid: pid) }
                let elapsed = Date().timeIntervalSince(started)
                if elapsed >= nextReport {
                    progress?(.waiting(method: method, bytes: body.count, elapsed: elapsed, timeout: timeout))
                    nextReport = elapsed.rounded(.down) + 1
                }
                continue
            }
            let frames: [[UInt8]]?
            do { frames = try socket.receiveMultipart(dontWait: true) } catch {
                throw .transport("receive failed: \(error)")
            }
            guard let frames, let last = frames.last else { continue }
            var reply: JSON
            do { reply = try JSONCodec.decode(last) } catch {
                throw .badReply("the engine sent invalid JSON: \(error)")
            }
            // Replies to earlier requests that timed out are skipped (and freed without recursion: a reply can
            // hold a tree as deep as the world).
            guard reply["id"]?.intValue == id else {
                JSON.release(&reply)
                continue
            }
            return reply
        }
    }

    /// Sends a request and returns its result, throwing `.rpc` for an error reply. The result is the caller's
    /// alone, so `JSON.release` on it frees it all.
    public func call(_ method: String, _ params: JSON = [:]) throws(ClientError) -> JSON {
        var reply = try send(method, params)
        let outcome = RPCResponse.read(reply)
        JSON.release(&reply)  // the envelope; the result is shared with `outcome` and stays whole
        switch outcome {
        case .success(let result): return result
        case .failure(let error): throw .rpc(error)
        }
    }

    /// Sends a notification (no reply).
    public func notify(_ method: String, _ params: JSON = [:]) throws(ClientError) {
        let body = JSONCodec.encode(RPCRequest(id: nil, method: method, params: params).json)
        try queue(
            [[], body], method: method, timeout: timeoutSeconds, deadline: Date().addingTimeInterval(timeoutSeconds))
    }

    /// Queues `frames` without blocking past `deadline` (internal: the relay uses it too). A DEALER blocks while it has no connection to queue
    /// on, which is the case after the engine refused a handshake (until libzmq reconnects): a blocking send
    /// would wait forever there, where this reports the refusal.
    func queue(_ frames: [[UInt8]], method: String, timeout: Double, deadline: Date) throws(ClientError) {
        while true {
            do { if try socket.send(frames, dontWait: true) { return } } catch {
                throw .transport("send failed: \(error)")
            }
            try handshakes.check()
            let remaining = Int(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { throw .timeout(method: method, seconds: timeout, pid: address.pid) }
            do {
                _ = try ZMQ.poll(
                    items: [.socket(socket, .writable), handshakes.pollItem], timeoutMs: min(remaining, 1000))
            } catch {
                throw .transport("poll failed: \(error)")
            }
            if let pid = address.pid, !EngineAddress.isAlive(pid) { throw .engineGone(method: method, pid: pid) }
        }
    }
}

/// How a request is going, for a progress display.
public enum RequestProgress: Sendable {
    /// The request, `bytes` long once encoded, is about to be sent.
    case sending(method: String, bytes: Int)
    /// No reply yet, `elapsed` seconds after sending (reported about once a second); the wait ends at `timeout`.
    case waiting(method: String, bytes: Int, elapsed: Double, timeout: Double)
    /// The wait is over: a reply came, or it failed.
    case finished(method: String)
}
