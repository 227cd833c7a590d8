#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and directories that only their owner may have written: discovery files, lock files, keys,
/// `authorized_clients`, the runtime and state directories. Another local user must not be able to plant one,
/// or a symbolic link that makes us write or read elsewhere; every check here is on the object itself (`lstat`,
/// `O_NOFOLLOW`), never on what a link points to.
public enum OwnedFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let message: String
        /// The path does not exist (the only failure a caller may treat as "not there yet").
        public let isMissing: Bool
        public var description: String { message }
    }

    /// Reads a regular file that belongs to this process's user and that no one else may write.
    public static func contents(_ path: String, what: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw openFailure(path, what: what) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure("cannot read \(what) \(path): \(errorText())") }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw failure("refusing \(what) \(path): it is not a regular file")
        }
        try checkOwner(st, path, what: what)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw failure("cannot read \(what) \(path): \(errorText())") }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }

    /// Checks that `path` is a directory (not a link to one), ours, and not writable by group or others.
    public static func checkDirectory(_ path: String, what: String) throws(Failure) {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw openFailure(path, what: what) }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw failure(
                "refusing \(what) \(path): it is a symbolic link (use the directory it points to, or remove the link)")
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw failure("refusing \(what) \(path): it is not a directory") }
        try checkOwner(st, path, what: what)
    }

    /// Creates `path` afresh with mode 0600 and writes `bytes`: never through a link, never into an existing file.
    public static func create(_ path: String, _ bytes: [UInt8], what: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw failure(
                "cannot create \(what) \(path): "
                    + (code == EEXIST
                        ? "something is already there (a file or a symbolic link); remove it if it is not yours"
                        : errorText(code)))
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw failure("cannot write \(what) \(path): \(errorText())") }
            offset += n
        }
        guard fsync(fd) == 0 else { throw failure("cannot write \(what) \(path): \(errorText())") }
    }

    /// Owned by our effective uid and not writable by group or others.
    public static func checkOwner(_ st: stat, _ path: String, what: String) throws(Failure) {
        let me = geteuid()
        guard st.st_uid == me else {
            throw failure(
                "refusing \(what) \(path): it belongs to uid \(st.st_uid), not to this user (uid \(me)); someone else may have planted it"
            )
        }
        guard st.st_mode & 0o022 == 0 else {
            throw failure(
                "refusing \(what) \(path): group or others may write it (mode \(String(st.st_mode & 0o7777, radix: 8))); chmod go-w it if it is yours"
            )
        }
    }

    private static func openFailure(_ path: String, what: String) -> Failure {
        let code = errno
        if code == ENOENT { return Failure(message: "no \(what) \(path)", isMissing: true) }
        if code == ELOOP {
            return failure("refusing \(what) \(path): it is a symbolic link; someone may be trying to redirect it")
        }
        return failure("cannot open \(what) \(path): \(errorText(code))")
    }

    private static func failure(_ message: String) -> Failure { Failure(message: message, isMissing: false) }
    private static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
