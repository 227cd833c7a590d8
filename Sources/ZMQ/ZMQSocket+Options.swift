import CZMQ

/// Socket options (`zmq_setsockopt` / `zmq_getsockopt`).
extension ZMQSocket {
    /// How long pending messages are kept after `close()` (ms; -1 = forever, 0 = drop).
    public func setLinger(_ ms: Int) throws(ZMQError) { try set(ZMQ_LINGER, int: ms, "LINGER") }
    /// Outgoing high-water mark in messages (0 = unlimited).
    public func setSendHWM(_ messages: Int) throws(ZMQError) { try set(ZMQ_SNDHWM, int: messages, "SNDHWM") }
    /// Incoming high-water mark in messages (0 = unlimited).
    public func setReceiveHWM(_ messages: Int) throws(ZMQError) { try set(ZMQ_RCVHWM, int: messages, "RCVHWM") }
    /// How long a new connection has to complete the ZMTP handshake before libzmq closes it (ms; 0 = forever).
    public func setHandshakeInterval(_ ms: Int) throws(ZMQError) {
        try set(ZMQ_HANDSHAKE_IVL, int: ms, "HANDSHAKE_IVL")
    }
    /// Receive timeout in ms (-1 = block forever); on expiry receives return nil.
    public func setReceiveTimeout(_ ms: Int) throws(ZMQError) { try set(ZMQ_RCVTIMEO, int: ms, "RCVTIMEO") }
    /// Send timeout in ms (-1 = block forever); on expiry sends return false.
    public func setSendTimeout(_ ms: Int) throws(ZMQError) { try set(ZMQ_SNDTIMEO, int: ms, "SNDTIMEO") }
    /// Queue messages only to completed connections.
    public func setImmediate(_ on: Bool) throws(ZMQError) { try set(ZMQ_IMMEDIATE, int: on ? 1 : 0, "IMMEDIATE") }
    /// Reconnect interval in ms (-1 = no reconnection).
    public func setReconnectInterval(_ ms: Int) throws(ZMQError) {
        try set(ZMQ_RECONNECT_IVL, int: ms, "RECONNECT_IVL")
    }
    /// ROUTER: fail with `EHOSTUNREACH` instead of dropping unroutable messages.
    public func setRouterMandatory(_ on: Bool) throws(ZMQError) {
        try set(ZMQ_ROUTER_MANDATORY, int: on ? 1 : 0, "ROUTER_MANDATORY")
    }
    /// XPUB: pass every subscription message up, not only new topics.
    public func setXPubVerbose(_ on: Bool) throws(ZMQError) {
        try set(ZMQ_XPUB_VERBOSE, int: on ? 1 : 0, "XPUB_VERBOSE")
    }
    /// XPUB: pass every subscription and every unsubscription message up, a departing peer's included.
    public func setXPubVerboser(_ on: Bool) throws(ZMQError) {
        try set(ZMQ_XPUB_VERBOSER, int: on ? 1 : 0, "XPUB_VERBOSER")
    }
    /// XPUB: message sent to every new subscriber on connect.
    public func setXPubWelcomeMessage(_ message: String) throws(ZMQError) {
        try set(ZMQ_XPUB_WELCOME_MSG, bytes: Array(message.utf8), "XPUB_WELCOME_MSG")
    }
    /// Largest inbound message in bytes (-1 = no limit); peers exceeding it are disconnected.
    public func setMaxMessageSize(_ bytes: Int64) throws(ZMQError) {
        var value = bytes
        try set(ZMQ_MAXMSGSIZE, &value, MemoryLayout<Int64>.size, "MAXMSGSIZE")
    }
    /// Identity announced to ROUTER peers (1...255 bytes, must not start with 0).
    public func setRoutingID(_ id: [UInt8]) throws(ZMQError) { try set(ZMQ_ROUTING_ID, bytes: id, "ROUTING_ID") }
    /// SUB: receive messages starting with `prefix` (empty = everything).
    public func subscribe(_ prefix: [UInt8]) throws(ZMQError) { try set(ZMQ_SUBSCRIBE, bytes: prefix, "SUBSCRIBE") }
    public func subscribe(_ prefix: String) throws(ZMQError) { try subscribe(Array(prefix.utf8)) }
    public func unsubscribe(_ prefix: [UInt8]) throws(ZMQError) {
        try set(ZMQ_UNSUBSCRIBE, bytes: prefix, "UNSUBSCRIBE")
    }
    public func unsubscribe(_ prefix: String) throws(ZMQError) { try unsubscribe(Array(prefix.utf8)) }

    /// The endpoint last bound or connected, with the resolved port for
    /// `tcp://127.0.0.1:*` binds. Empty if none.
    public var lastEndpoint: String {
        get throws(ZMQError) {
            var buffer = [CChar](repeating: 0, count: 1024)
            var size = buffer.count
            try call("getsockopt LAST_ENDPOINT") { zmq_getsockopt($0, ZMQ_LAST_ENDPOINT, &buffer, &size) }
            let bytes = buffer.prefix(size).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The socket's notification file descriptor (`ZMQ_FD`). It is
    /// edge-triggered: after it polls readable, check `events` until it no
    /// longer reports the wanted event.
    public var fileDescriptor: Int32 {
        get throws(ZMQError) { try getInt32(ZMQ_FD, "FD") }
    }

    /// What the socket can do right now without blocking (`ZMQ_EVENTS`).
    public var events: PollEvents {
        get throws(ZMQError) { PollEvents(rawValue: Int16(truncatingIfNeeded: try getInt32(ZMQ_EVENTS, "EVENTS"))) }
    }

    /// True if the socket can do all of `wanted` now (e.g. `.readable`: a receive would not block).
    public func hasEvents(_ wanted: PollEvents) throws(ZMQError) -> Bool {
        try events.isSuperset(of: wanted)
    }

    // MARK: - Raw helpers

    func set(_ option: Int32, int value: Int, _ name: String) throws(ZMQError) {
        guard let narrow = Int32(exactly: value) else {
            throw ZMQError(errno: EINVAL, operation: "setsockopt \(name)")
        }
        var v = narrow
        try set(option, &v, MemoryLayout<Int32>.size, name)
    }

    func set(_ option: Int32, bytes: [UInt8], _ name: String) throws(ZMQError) {
        try call("setsockopt \(name)") { socket in
            bytes.withUnsafeBytes { zmq_setsockopt(socket, option, $0.baseAddress, $0.count) }
        }
    }

    private func set(_ option: Int32, _ value: UnsafeRawPointer, _ size: Int, _ name: String) throws(ZMQError) {
        try call("setsockopt \(name)") { zmq_setsockopt($0, option, value, size) }
    }

    private func getInt32(_ option: Int32, _ name: String) throws(ZMQError) -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        try call("getsockopt \(name)") { zmq_getsockopt($0, option, &value, &size) }
        return value
    }
}
