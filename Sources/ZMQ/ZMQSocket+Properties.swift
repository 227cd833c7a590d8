import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receiving a message with several of its properties, for the paths where a copy of each frame costs nothing
/// that matters (subscriptions), unlike `receiveFrames` on the request path.
extension ZMQSocket {
    /// The frames of the next message and the values of `properties` ("User-Id", "Peer-Address", …) as its last
    /// frame carries them (nil where it has none), or nil when no message is available.
    public func receiveMessage(dontWait: Bool = false, properties: [ZMQProperty]) throws(ZMQError) -> (
        frames: [[UInt8]], properties: [String?]
    )? {
        let socket = try liveHandle("receive")
        let msg = scratch
        var frames: [[UInt8]] = []
        while true {
            let flags = frames.isEmpty && dontWait ? ZMQ_DONTWAIT : 0
            zmq_msg_init(msg)
            defer { zmq_msg_close(msg) }
            while zmq_msg_recv(msg, socket, flags) < 0 {
                let code = zmq_errno()
                if code == EINTR { continue }
                if code == EAGAIN && frames.isEmpty { return nil }
                throw ZMQError(errno: code, operation: "receive")
            }
            frames.append(Array(UnsafeRawBufferPointer(start: zmq_msg_data(msg), count: zmq_msg_size(msg))))
            if zmq_msg_more(msg) == 0 {
                let values = properties.map { property in
                    property.name.withUnsafeBufferPointer { zmq_msg_gets(msg, $0.baseAddress!) }.map {
                        String(cString: $0)
                    }
                }
                return (frames, values)
            }
        }
    }
}
