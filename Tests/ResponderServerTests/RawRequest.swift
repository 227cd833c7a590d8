import ResponderClient
import ZMQ

/// Sends one request body as text and returns the reply as text, without parsing either into a JSON value.
enum RawRequest {
    static func send(address: EngineAddress, body: String) throws -> String {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context: context, type: .dealer)
        defer {
            socket.close()
            context.terminate()
        }
        try socket.setLinger(0)
        try socket.setReceiveTimeout(60_000)
        try socket.connect(address.rpc)
        try socket.send([[], Array(body.utf8)])
        guard let frames = try socket.receiveMultipart(), let last = frames.last else { return "" }
        return String(decoding: last, as: UTF8.self)
    }
}
