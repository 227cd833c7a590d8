import Foundation

/// One engine per name: an exclusive flock on `<dir>/<name>.lock`, held for the engine's life. The kernel
/// drops it when a crashed engine dies, so what that engine left behind can be taken over.
final class InstanceLock {
    private var fd: Int32
    let path: String

    init(directory: String, name: String) throws {
        path = "\(directory)/\(name).lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw EngineError.io("cannot open lock file \(path): \(String(cString: strerror(errno)))") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let holder = Self.readPID(fd)
            close(fd)
            fd = -1
            throw EngineError.alreadyRunning(name: name, pid: holder)
        }
        // Record our pid for the message a second engine prints.
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, 31, 0)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
