import ResponderClient
import ZMQ

/// Talks to the engine with bare DEALER frames, without the client library parsing anything.
final class RawDealer {
    let context: ZMQContext
    let socket: ZMQSocket

    init(address: EngineAddress, receiveTimeoutMs: Int = patienceMs) throws {
        context = try ZMQContext()
        socket = try ZMQSocket(context: context, type: .dealer)
        try socket.setLinger(0)
        try socket.setReceiveTimeout(receiveTimeoutMs)
        try socket.connect(address.rpc)
    }

    deinit {
        socket.close()
        context.terminate()
    }

    func send(_ body: String) throws { try socket.send([[], Array(body.utf8)]) }

    /// The body of the next reply, or nil on timeout.
    func receive() throws -> [UInt8]? { try socket.receiveMultipart()?.last }
}

enum RawRequest {
    /// Sends one request body as text and returns the reply as text ("" if none comes within `timeoutMs`).
    static func send(address: EngineAddress, body: String, timeoutMs: Int = patienceMs) throws -> String {
        let dealer = try RawDealer(address: address, receiveTimeoutMs: timeoutMs)
        try dealer.send(body)
        return try dealer.receive().map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
