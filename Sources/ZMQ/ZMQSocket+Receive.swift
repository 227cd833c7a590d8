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
        try receiveMultipart(dontWait: dontWait, property: nil) { _ in }
    }

    /// Like `receiveMultipart`, also reading a metadata property of the message's last frame (`zmq_msg_gets`:
    /// "User-Id" as the ZAP handler set it, "Peer-Address", a ZMTP property): when the frame has it, it is handed
    /// to `read` where libzmq keeps it (valid during the call only), so that a caller that sees the same value
    /// message after message need not copy it each time.
    public func receiveMultipart(dontWait: Bool = false, property: ZMQProperty?,
                                 read: (UnsafePointer<CChar>) -> Void) throws(ZMQError) -> [[UInt8]]? {
        let socket = try liveHandle("receive")
        // zmq_msg_t must stay at a fixed address while libzmq uses it.
        let msg = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
        defer { msg.deallocate() }

        // A request is two or three frames (routing id, delimiter, body): room made once, not grown twice.
        var frames: [[UInt8]] = []
        while true {
            // Only the first frame may be absent; the rest arrive atomically.
            let flags = frames.isEmpty && dontWait ? ZMQ_DONTWAIT : 0
            zmq_msg_init(msg)
            defer { zmq_msg_close(msg) }
            guard let frame = try receiveFrame(socket, msg, flags: flags) else {
                if frames.isEmpty { return nil }
                throw ZMQError(errno: EAGAIN, operation: "receive frame \(frames.count)")
            }
            if frames.isEmpty { frames.reserveCapacity(3) }
            frames.append(frame.bytes)
            if !frame.more {
                // Read before the message is closed: the value belongs to it. Only the last frame's is read.
                if let property, let raw = property.name.withUnsafeBufferPointer({ zmq_msg_gets(msg, $0.baseAddress!) }) { read(raw) }
                return frames
            }
        }
    }

    /// Receives one frame into `msg` (initialized; the caller closes it) and copies its bytes out.
    /// nil on EAGAIN.
    private func receiveFrame(
        _ socket: UnsafeMutableRawPointer,
        _ msg: UnsafeMutablePointer<zmq_msg_t>,
        flags: Int32
    ) throws(ZMQError) -> (bytes: [UInt8], more: Bool)? {
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
        return (bytes, zmq_msg_more(msg) != 0)
    }
}

/// A message property's name as libzmq reads it (a C string), made once.
public struct ZMQProperty: Sendable {
    let name: ContiguousArray<CChar>
    public init(_ name: String) { self.name = name.utf8CString }
}
