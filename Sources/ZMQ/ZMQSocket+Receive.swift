import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receiving whole multipart messages (`zmq_msg_recv`, no size limit).
extension ZMQSocket {
    /// Receives every frame of the next message.
    ///
    /// Returns nil when no message is available: `dontWait` and the queue is
    /// empty, or the receive timeout (`setReceiveTimeout`) expired. Retries
    /// on EINTR. Throws on other errors (e.g. `ETERM`).
    public func receiveMultipart(dontWait: Bool = false) throws(ZMQError) -> [[UInt8]]? {
        try receiveMultipart(dontWait: dontWait, property: nil)?.frames
    }

    /// Like `receiveMultipart`, also reading a metadata property of the message's last frame
    /// (`zmq_msg_gets`: "User-Id" as the ZAP handler set it, "Peer-Address", a ZMTP property); nil if absent.
    public func receiveMultipart(dontWait: Bool = false, property: String?) throws(ZMQError) -> (frames: [[UInt8]], property: String?)? {
        let socket = try liveHandle("receive")
        // zmq_msg_t must stay at a fixed address while libzmq uses it.
        let msg = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
        defer { msg.deallocate() }

        var frames: [[UInt8]] = []
        while true {
            // Only the first frame may be absent; the rest arrive atomically.
            let flags = frames.isEmpty && dontWait ? ZMQ_DONTWAIT : 0
            guard let frame = try receiveFrame(socket, msg, flags: flags, property: property) else {
                if frames.isEmpty { return nil }
                throw ZMQError(errno: EAGAIN, operation: "receive frame \(frames.count)")
            }
            frames.append(frame.bytes)
            if !frame.more { return (frames, frame.property) }
        }
    }

    /// Receives one frame into `msg`, copies it out and releases it.
    /// nil on EAGAIN.
    private func receiveFrame(
        _ socket: UnsafeMutableRawPointer,
        _ msg: UnsafeMutablePointer<zmq_msg_t>,
        flags: Int32,
        property: String?
    ) throws(ZMQError) -> (bytes: [UInt8], more: Bool, property: String?)? {
        zmq_msg_init(msg)
        defer { zmq_msg_close(msg) }
        while zmq_msg_recv(msg, socket, flags) < 0 {
            // The errno first: EAGAIN ends every non-blocking drain, and an error's text is not free.
            let code = zmq_errno()
            if code == EINTR { continue }
            if code == EAGAIN { return nil }
            throw ZMQError(errno: code, operation: "receive")
        }
        let size = zmq_msg_size(msg)
        let bytes: [UInt8]
        if size == 0 {
            bytes = []
        } else {
            let data = UnsafeRawBufferPointer(start: zmq_msg_data(msg), count: size)
            bytes = Array(data)
        }
        // Read before the message is closed: the string belongs to it. Only the last frame's is returned.
        let more = zmq_msg_more(msg) != 0
        let value = more ? nil : property.flatMap { zmq_msg_gets(msg, $0).map { String(cString: $0) } }
        return (bytes, more, value)
    }
}
