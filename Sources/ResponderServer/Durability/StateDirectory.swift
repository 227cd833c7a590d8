import Foundation
import ResponderLocal
import ResponderProtocol

/// How much of an acknowledged change survives (README "Security and durability").
public enum Durability: String, Sendable, CaseIterable {
    /// Nothing is written: the state lives as long as the process (as `--ephemeral`).
    case none
    /// SQLite WAL with synchronous=NORMAL: every acknowledged change survives a crash or kill of the engine;
    /// the last commits before a power loss or OS crash may be lost (never half-applied).
    case normal
    /// synchronous=FULL: each group commit is fsynced before its replies go out, so acknowledged changes
    /// survive a power loss too.
    case full
}

/// The directory of an engine's durable state and its keys: `$XDG_STATE_HOME/responder/<name>`, else
/// `~/.local/state/responder/<name>`; mode 0700 and owned by the engine's user.
public enum StateDirectory {
    public static func defaultPath(name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        Discovery.defaultStateDirectory(name: name, environment: environment)
    }

    /// Where the CURVE keypair and `authorized_clients` live: the one place the engine decides it. An ephemeral
    /// engine keeps its keys in the default directory, so that they outlive it.
    static func path(for config: EngineConfig, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        config.security.stateDirectory ?? config.stateDirectory
            ?? defaultPath(name: config.name, environment: environment)
    }

    /// Creates the directory (parents too, 0700) and checks it: a real directory, not a symlink, owned by us, that
    /// no one else could write (they might have put a database there); group and other read bits are taken away.
    static func prepare(_ path: String) throws(EngineError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .stateDirectory("cannot create the state directory \(path): \(error.localizedDescription)")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw .stateDirectory("cannot read the state directory \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .stateDirectory(
                "the state directory \(path) is not a directory (a symlink or a file): refusing to use it")
        }
        guard info.st_uid == geteuid() else {
            throw .stateDirectory(
                "the state directory \(path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid())): refusing to use it"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .stateDirectory(
                "the state directory \(path) is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))): someone else may have put files in it; refusing to use it (if everything in it is yours, chmod 700 it)"
            )
        }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw .stateDirectory(
                "cannot set mode 0700 on the state directory \(path): \(String(cString: strerror(errno)))")
        }
    }
}

extension EngineConfig {
    /// Whether acknowledged changes are written to a state directory.
    public var isDurable: Bool { stateDirectory != nil && durability != .none }
}
