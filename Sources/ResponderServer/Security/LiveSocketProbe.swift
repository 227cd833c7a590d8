import Foundation

/// Whether a process is listening on an ipc socket file. A file left by a dead engine refuses connections; a
/// live one accepts: binding over it would silently take its clients, so the start is refused instead.
enum LiveSocketProbe {
    static func isListening(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return connected == 0
    }

    /// Throws when `endpoint` is an ipc path a live process listens on.
    static func refuseIfTaken(_ endpoint: String, flag: String) throws {
        guard endpoint.hasPrefix("ipc://") else { return }
        let path = String(endpoint.dropFirst("ipc://".count))
        if isListening(path) {
            throw EngineError.socket(
                "\(flag) \(endpoint): another process (an engine of another name?) is listening there; stop it or choose another path"
            )
        }
    }
}
