import Foundation

/// The least a CDP client needs of RFC 6455 over a blocking loopback socket: the upgrade, masked text frames
/// out, whole text frames in. Written here rather than taken from a WebSocket library so that the peer is
/// measured with a client as thin as our side's raw libzmq (no event loop between the two).
final class WebSocket {
    private let fd: Int32
    private var buffer = [UInt8]()

    init(host: String = "127.0.0.1", port: UInt16, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchError("cannot connect to 127.0.0.1:\(port)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A browser that stops answering fails the measurement instead of hanging it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try write(
            Array(
                "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .utf8))
        let end = Array("\r\n\r\n".utf8)
        while buffer.firstRange(of: end) == nil { try fill() }
        let headerEnd = buffer.firstRange(of: end)!.upperBound
        let status = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        guard status.hasPrefix("HTTP/1.1 101") else {
            throw BenchError("WebSocket upgrade refused: \(status.prefix(80))")
        }
        buffer.removeFirst(headerEnd)
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        for (i, b) in payload.enumerated() { frame.append(b ^ mask[i % 4]) }
        try write(frame)
    }

    /// The next text message (pings and other control frames are skipped).
    func receive() throws -> [UInt8] {
        while true {
            while buffer.count < 2 { try fill() }
            let opcode = buffer[0] & 0x0F
            var length = Int(buffer[1] & 0x7F)
            var header = 2
            if length == 126 {
                while buffer.count < 4 { try fill() }
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                header = 4
            } else if length == 127 {
                while buffer.count < 10 { try fill() }
                length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
                header = 10
            }
            while buffer.count < header + length { try fill() }
            let payload = Array(buffer[header..<header + length])
            buffer.removeFirst(header + length)
            if opcode == 0x1 { return payload }
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw BenchError("WebSocket write failed") }
            offset += n
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw BenchError("WebSocket closed") }
        buffer += chunk[..<n]
    }
}

/// A plain HTTP GET on loopback (the DevTools target list), read to the end.
func httpGet(port: UInt16, path: String) throws -> [UInt8] {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw BenchError("cannot connect to 127.0.0.1:\(port)") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var response = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        response += chunk[..<n]
    }
    guard let end = response.firstRange(of: Array("\r\n\r\n".utf8)) else { throw BenchError("bad HTTP response") }
    return Array(response[end.upperBound...])
}
