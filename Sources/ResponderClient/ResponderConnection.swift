import Foundation
import ResponderProtocol
import ZMQ

/// A synchronous JSON-RPC client over a DEALER socket. Not thread-safe: one owner, like the socket.
public final class ResponderConnection {
    public let address: EngineAddress
    private let context: ZMQContext
    /// Internal rather than private: the relay (ResponderConnection+Relay.swift) uses it on the owner's thread.
    let socket: ZMQSocket
    private var nextID = 1
    public var timeoutSeconds: Double

    /// `routingID` fixes the connection's ZeroMQ routing id (its client id, protocol 14.4) so that a later
    /// connection with the same id can continue the touches and presses this one began; nil lets the engine pick.
    public init(address: EngineAddress, timeoutSeconds: Double = 10, routingID: [UInt8]? = nil) throws(ClientError) {
        self.address = address
        self.timeoutSeconds = timeoutSeconds
        do {
            context = try ZMQContext()
            socket = try ZMQSocket(context: context, type: .dealer)
            try socket.setLinger(0)
            if let routingID { try socket.setRoutingID(routingID) }
            try socket.connect(address.rpc)
        } catch {
            throw .transport("cannot connect to \(address.rpc): \(error)")
        }
    }

    deinit {
        socket.close()
        context.terminate()
    }

    /// Sends a request and returns the full response object (result or error).
    public func send(_ method: String, _ params: JSON = [:]) throws(ClientError) -> JSON {
        let id = nextID
        nextID += 1
        let body = JSONCodec.encode(RPCRequest(id: JSON(id), method: method, params: params).json)
        do { _ = try socket.send([[], body]) } catch { throw .transport("send failed: \(error)") }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            let remaining = Int(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { throw .timeout(method: method, seconds: timeoutSeconds) }
            let ready: [PollResult]
            do { ready = try ZMQ.poll(items: [.socket(socket, .readable)], timeoutMs: remaining) } catch {
                throw .transport("poll failed: \(error)")
            }
            guard !ready.isEmpty else { continue }
            let frames: [[UInt8]]?
            do { frames = try socket.receiveMultipart(dontWait: true) } catch { throw .transport("receive failed: \(error)") }
            guard let frames, let last = frames.last else { continue }
            var reply: JSON
            do { reply = try JSONCodec.decode(last) } catch { throw .badReply("the engine sent invalid JSON: \(error)") }
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
        do { _ = try socket.send([[], body]) } catch { throw .transport("send failed: \(error)") }
    }
}
