import Foundation

/// One engine per name: an exclusive flock on `<dir>/<name>.lock`, held for the engine's life. The kernel
/// drops it when a crashed engine dies, so what that engine left behind can be taken over.
final class InstanceLock {
    private var fd: Int32
    let path: String

    init(directory: String, name: String) throws {
        path = "\(directory)/\(name).lock"
        // Never through a planted link (O_NOFOLLOW), and only a regular file of ours.
        fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason =
                errno == ELOOP
                ? "it is a symbolic link; someone may be trying to make the engine write elsewhere. Remove it"
                : String(cString: strerror(errno))
            throw EngineError.io("refusing lock file \(path): \(reason)")
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG || st.st_uid != geteuid() {
            close(fd)
            fd = -1
            throw EngineError.io("refusing lock file \(path): not a regular file of this user; remove it")
        }
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
