import CZMQ

/// Socket monitoring (`zmq_socket_monitor`): libzmq reports connection events on an inproc PAIR socket.
extension ZMQSocket {
    /// Starts publishing `events` of this socket on `endpoint` (an `inproc://` address); connect a PAIR socket
    /// to it before the monitored socket binds, or the first events are lost.
    public func monitor(_ endpoint: String, events: MonitorEvent.Kind) throws(ZMQError) {
        try call("socket_monitor \(endpoint)") { zmq_socket_monitor($0, endpoint, events.rawValue) }
    }
}

/// One event read from a monitor PAIR socket: frame 1 holds the event (16 bits) and its value (32 bits, the
/// file descriptor for connection events), frame 2 the endpoint.
public struct MonitorEvent: Sendable, Equatable {
    public struct Kind: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let accepted = Kind(rawValue: Int32(ZMQ_EVENT_ACCEPTED))
        public static let disconnected = Kind(rawValue: Int32(ZMQ_EVENT_DISCONNECTED))
        public static let monitorStopped = Kind(rawValue: Int32(ZMQ_EVENT_MONITOR_STOPPED))
    }

    public let kind: Kind
    public let value: Int32

    /// nil for a message that is not a monitor event.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        // Both numbers are in host byte order (libzmq copies them with memcpy).
        (kind, value) = frames[0].withUnsafeBytes {
            (
                Kind(rawValue: Int32($0.loadUnaligned(as: UInt16.self))),
                $0.loadUnaligned(fromByteOffset: 2, as: Int32.self)
            )
        }
    }
}
