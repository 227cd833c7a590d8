import Foundation
import ResponderJSON
import ResponderLocal
import ResponderProtocol

/// `<dir>/<name>.json`: how clients find a running engine. Written atomically (temp file + rename) with mode 0600.
enum DiscoveryFile {
    static func path(directory: String, name: String) -> String { Discovery.filePath(directory: directory, name: name) }

    static func write(_ content: Discovery.File, to path: String) throws {
        let temp = path + ".tmp-\(getpid())"
        // Created afresh (O_EXCL, O_NOFOLLOW): a leftover of a crashed engine with our pid is removed first (unlink
        // removes a link itself, never what it points to); rename replaces whatever is at `path` the same way.
        unlink(temp)
        do { try OwnedFile.create(temp, JSONCodec.encode(content.json) + [0x0A], what: "discovery file") } catch {
            throw EngineError.io(error.message)
        }
        guard rename(temp, path) == 0 else {
            throw EngineError.io("cannot rename \(temp) to \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func remove(_ path: String) { unlink(path) }

    /// Removes an ipc endpoint's socket file (left behind by a crashed engine).
    static func removeSocketFile(of endpoint: String) {
        guard endpoint.hasPrefix("ipc://") else { return }
        SecureDirectory.removeSocketFile(String(endpoint.dropFirst("ipc://".count)))
    }
}
