import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sending frames (`zmq_send`, which copies the bytes).
extension ZMQSocket {
    /// Sends a multipart message: `ZMQ_SNDMORE` on every frame but the last.
    ///
    /// Returns false, without throwing, when the first frame could not be
    /// queued (EAGAIN: `dontWait` and the queue is full / there is no peer,
    /// or the send timeout expired); the message is then dropped. libzmq
    /// delivers multipart messages atomically, so once the first frame is
    /// accepted the rest are sent blocking. An empty `frames` throws EINVAL.
    @discardableResult
    public func send(_ frames: [[UInt8]], dontWait: Bool = false) throws(ZMQError) -> Bool {
        guard !frames.isEmpty else { throw ZMQError(errno: EINVAL, operation: "send (no frames)") }
        for (index, frame) in frames.enumerated() {
            let more = index < frames.count - 1
            let sent = try send(frame, more: more, dontWait: index == 0 && dontWait)
            if !sent {
                if index == 0 { return false }
                throw ZMQError(errno: EAGAIN, operation: "send frame \(index) of \(frames.count)")
            }
        }
        return true
    }

    /// A ROUTER's reply: `routingID`, an empty delimiter frame when `delimiter` (a REQ peer's envelope), then
    /// `body` — the frames `send(_:)` would send, without an array of them made for each reply. Returns false
    /// when the first frame could not be queued (as `send(_:)`).
    public func send(routingID: [UInt8], delimiter: Bool, body: [UInt8], dontWait: Bool = false) throws(ZMQError)
        -> Bool
    {
        // The hand-over send with a body it always copies: its frames, written once.
        try body.withUnsafeBytes { bytes in
            Result { () throws(ZMQError) in
                try send(
                    routingID: routingID, delimiter: delimiter, body: bytes, handedFrom: .max,
                    take: { preconditionFailure("a body this size is copied, never taken") }, dontWait: dontWait)
            }
        }.get()
    }

    /// Sends one frame; `more` sets `ZMQ_SNDMORE`. Returns false on EAGAIN
    /// (`dontWait` and the frame cannot be queued, or the send timeout
    /// expired). Retries on EINTR.
    @discardableResult
    public func send(_ frame: [UInt8], more: Bool, dontWait: Bool = false) throws(ZMQError) -> Bool {
        // Through a Result: `withUnsafeBytes` rethrows as `any Error`.
        try frame.withUnsafeBytes { bytes in
            Result { () throws(ZMQError) in try send(bytes, more: more, dontWait: dontWait) }
        }.get()
    }

    /// `send(_:more:dontWait:)` of bytes wherever they are.
    public func send(_ frame: UnsafeRawBufferPointer, more: Bool, dontWait: Bool = false) throws(ZMQError) -> Bool {
        let socket = try liveHandle("send")
        let flags = (more ? ZMQ_SNDMORE : 0) | (dontWait ? ZMQ_DONTWAIT : 0)
        while true {
            let rc = zmq_send(socket, frame.baseAddress, frame.count, flags)
            if rc >= 0 { return true }
            // The errno first: EAGAIN ends every non-blocking drain, and an error's text is not free.
            let code = zmq_errno()
            if code == EINTR { continue }
            if code == EAGAIN { return false }
            throw ZMQError(errno: code, operation: "send")
        }
    }

    /// Convenience: sends UTF-8 string frames.
    @discardableResult
    public func send(_ frames: [String], dontWait: Bool = false) throws(ZMQError) -> Bool {
        try send(frames.map { Array($0.utf8) }, dontWait: dontWait)
    }
}
