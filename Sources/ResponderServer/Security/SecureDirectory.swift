import Foundation
import ResponderLocal
import ResponderProtocol

/// The engine's private directories (runtime: discovery, lock, sockets; state: keys). Another user may have
/// created the path first (`/tmp/responder-<uid>` sits in a world-writable /tmp): the engine then refuses it
/// rather than put its files where someone else controls them.
public enum SecureDirectory {
    /// Creates `path` with mode 0700 (under umask 077) if missing, then checks it with `lstat`: a directory,
    /// not a symbolic link, owned by us, not writable by group or others. An accepted one is set to 0700.
    public static func prepare(_ path: String, what: String) throws {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }  // "dir/" would make lstat follow a link
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) {
            try FileManager.default.createDirectory(
                atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let previous = umask(0o077)
        let made = mkdir(path, 0o700)
        let code = errno
        umask(previous)
        if made != 0, code != EEXIST {
            throw EngineError.io("cannot create \(what) \(path): \(String(cString: strerror(code)))")
        }
        do { try OwnedFile.checkDirectory(path, what: what) } catch { throw EngineError.io(error.message) }
        guard chmod(path, 0o700) == 0 else {
            throw EngineError.io("cannot set mode 0700 on \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the ipc socket file at `path` only if it is one: `--rpc ipc:///home/me/notes.txt` must not delete
    /// a user's file, and a link is never followed.
    static func removeSocketFile(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return }
        unlink(path)
    }
}
