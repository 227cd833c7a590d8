import CZMQ

/// ZAP and CURVE socket options (zmq_curve(7), ZAP: rfc.zeromq.org/spec/27).
extension ZMQSocket {
    /// Asks the ZAP handler (`inproc://zeromq.zap.01` in this socket's context) about every connection,
    /// NULL-mechanism ones included. Set before `bind`.
    public func setZAPDomain(_ domain: String) throws(ZMQError) {
        try set(ZMQ_ZAP_DOMAIN, bytes: Array(domain.utf8), "ZAP_DOMAIN")
    }

    /// Server side of CURVE: this socket's secret key; peers must know its public key.
    public func setCurveServer(secretKey: CurveKey) throws(ZMQError) {
        try set(ZMQ_CURVE_SERVER, int: 1, "CURVE_SERVER")
        try set(ZMQ_CURVE_SECRETKEY, bytes: secretKey.bytes, "CURVE_SECRETKEY")
    }

    /// Client side of CURVE: the server's public key and this client's keypair. Set before `connect`.
    public func setCurveClient(serverKey: CurveKey, publicKey: CurveKey, secretKey: CurveKey) throws(ZMQError) {
        try set(ZMQ_CURVE_SERVERKEY, bytes: serverKey.bytes, "CURVE_SERVERKEY")
        try set(ZMQ_CURVE_PUBLICKEY, bytes: publicKey.bytes, "CURVE_PUBLICKEY")
        try set(ZMQ_CURVE_SECRETKEY, bytes: secretKey.bytes, "CURVE_SECRETKEY")
    }
}

extension ZMQ {
    /// `zmq_has`: whether the library supports a capability ("curve", "ipc", "draft"…).
    public static func has(_ capability: String) -> Bool { zmq_has(capability) != 0 }
}

/// A 32-byte CURVE key, written in Z85 (40 characters) in files and on the wire of this project.
public struct CurveKey: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// From 40 Z85 characters; nil for anything else.
    public init?(z85 text: String) {
        let chars = Array(text.utf8)
        guard chars.count == 40 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        let ok = (chars + [0]).withUnsafeBufferPointer { src in
            src.withMemoryRebound(to: CChar.self) { zmq_z85_decode(&out, $0.baseAddress!) != nil }
        }
        guard ok else { return nil }
        self.bytes = out
    }

    public var z85: String {
        var out = [CChar](repeating: 0, count: 41)
        _ = zmq_z85_encode(&out, bytes, 32)
        return String(decoding: out.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { z85 }

    /// A new keypair from libsodium (through libzmq).
    public static func generatePair() throws(ZMQError) -> (public: CurveKey, secret: CurveKey) {
        var pub = [CChar](repeating: 0, count: 41), sec = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&pub, &sec) == 0 else { throw .last("zmq_curve_keypair") }
        return (Self.fromZ85Buffer(pub), Self.fromZ85Buffer(sec))
    }

    /// The public key that belongs to `secret`.
    public static func publicKey(of secret: CurveKey) throws(ZMQError) -> CurveKey {
        var pub = [CChar](repeating: 0, count: 41)
        let sec = Array(secret.z85.utf8CString)
        guard zmq_curve_public(&pub, sec) == 0 else { throw .last("zmq_curve_public") }
        return fromZ85Buffer(pub)
    }

    private static func fromZ85Buffer(_ buffer: [CChar]) -> CurveKey {
        CurveKey(z85: String(decoding: buffer.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self))!
    }
}

/// How a connection's security handshake ended, from a socket monitor (`zmq_socket_monitor`).
public enum HandshakeOutcome: Equatable, Sendable {
    case succeeded
    /// The peer's ZAP handler refused us (`status`: its ZAP status code, 400 for "not allowed").
    case refused(status: Int)
    /// Keys or mechanisms do not match (a wrong server key, CURVE against plain), or another protocol error.
    case failed
}

extension ZMQSocket {
    /// Publishes this socket's handshake outcomes on `endpoint` (inproc) for a PAIR socket to read with
    /// `readHandshake`. Call before `connect`.
    public func monitorHandshakes(on endpoint: String) throws(ZMQError) {
        let events =
            ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
            | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
        try call("socket_monitor \(endpoint)") { zmq_socket_monitor($0, endpoint, events) }
    }

    /// On the PAIR connected to a monitor endpoint: the next handshake outcome waiting, or nil.
    public func readHandshake() throws(ZMQError) -> HandshakeOutcome? {
        while let frames = try receiveMultipart(dontWait: true) {
            // [event: u16, value: u32 (native order)][endpoint]
            guard let first = frames.first, first.count >= 6 else { continue }
            let event = Int32(UInt16(first[0]) | UInt16(first[1]) << 8)
            let value = first[2...5].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            switch event {
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: return .succeeded
            case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: return .refused(status: value)
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL, ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: return .failed
            default: continue
            }
        }
        return nil
    }
}
