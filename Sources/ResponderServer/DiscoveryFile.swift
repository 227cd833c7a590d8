import Foundation
import ResponderProtocol

/// `<dir>/<name>.json`: how clients find a running engine. Written atomically (temp file + rename) with mode 0600.
enum DiscoveryFile {
    static func path(directory: String, name: String) -> String { Discovery.filePath(directory: directory, name: name) }

    static func write(_ content: Discovery.File, to path: String) throws {
        let temp = path + ".tmp-\(getpid())"
        let bytes = JSONCodec.encode(content.json) + [0x0A]
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw EngineError.io("cannot write \(temp): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else { throw EngineError.io("cannot write \(temp)") }
        guard rename(temp, path) == 0 else { throw EngineError.io("cannot rename \(temp) to \(path): \(String(cString: strerror(errno)))") }
    }

    static func remove(_ path: String) { unlink(path) }

    /// Removes an ipc endpoint's socket file (left behind by a crashed engine).
    static func removeSocketFile(of endpoint: String) {
        guard endpoint.hasPrefix("ipc://") else { return }
        unlink(String(endpoint.dropFirst("ipc://".count)))
    }
}
