import Foundation
import Logging
import ResponderCore
import ResponderJSON
import ResponderLocal
import ResponderProtocol

/// Everything an engine needs to start; filled from responderd's flags or by a test.
public struct EngineConfig: Sendable {
    public var name: String
    /// Directory of the discovery file, lock file and default ipc sockets.
    public var directory: String
    public var rpcEndpoint: String
    public var eventsEndpoint: String
    public var limits: Limits
    /// Events kept per session for `trace.replay`.
    public var replayBuffer: Int
    /// Period of `$sys/tick`, in milliseconds.
    public var tickMilliseconds: Int
    /// The world of the `default` session at start (`{"tree": …, "detached"?: …}`), or nil for an empty app.
    public var initialWorld: JSON? {
        get { heldInitialWorld?.value }
        set { heldInitialWorld = newValue.map(JSONHolder.init) }
    }
    /// Held so that a deep world is freed without recursion when the last copy of the configuration goes away.
    private var heldInitialWorld: JSONHolder?
    /// Messages queued per subscriber before the engine drops (never blocks on a slow subscriber).
    public var publishHighWaterMark: Int
    /// A client that has sent no request for this long is no longer listed by session.clients.
    public var clientIdleSeconds: Double = 600
    /// Connections, queued replies, replay bytes, sessions.
    public var bounds = EngineBounds()
    /// Where `initialWorld` came from (a file name), for the message when it cannot be loaded.
    public var initialWorldSource: String?
    /// Where the durable state lives (`StateDirectory`), or nil to keep it in memory only (tests, demos).
    public var stateDirectory: String?
    public var durability: Durability = .normal
    /// Start from the valid part of a damaged state directory instead of refusing to start.
    public var recover = false
    /// Requests at least this large are parsed (and a tree.load's world validated) off the engine thread.
    public var offloadBytes = 256 << 10
    /// Who may connect: other uids over ipc, plain tcp on loopback, the state directory for keys.
    public var security = SecurityConfig()

    public init(
        name: String = "default", directory: String? = nil, rpcEndpoint: String? = nil, eventsEndpoint: String? = nil,
        limits: Limits = .default, replayBuffer: Int = 10_000, tickMilliseconds: Int = 1000,
        initialWorld: JSON? = nil, publishHighWaterMark: Int = 100_000
    ) {
        let dir = directory ?? RuntimeDirectory.defaultPath()
        self.name = name
        self.directory = dir
        self.rpcEndpoint = rpcEndpoint ?? "ipc://\(dir)/\(name).rpc"
        self.eventsEndpoint = eventsEndpoint ?? "ipc://\(dir)/\(name).events"
        self.limits = limits
        self.replayBuffer = replayBuffer
        self.tickMilliseconds = tickMilliseconds
        self.heldInitialWorld = initialWorld.map(JSONHolder.init)
        self.publishHighWaterMark = publishHighWaterMark
    }

    public static let version = "0.1.0"
    public static let protocolVersion = 1

    /// Instance names become file names: keep them to a safe alphabet.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
                    || b == 0x5F
            }
    }
}

public enum RuntimeDirectory {
    /// `$XDG_RUNTIME_DIR/responder`, else `/tmp/responder-<uid>` (the one default clients look in too).
    public static func defaultPath() -> String { Discovery.defaultDirectory() }

    /// Creates the directory with mode 0700, or refuses one that is not safely ours (SecureDirectory).
    public static func prepare(_ path: String) throws { try SecureDirectory.prepare(path, what: "runtime directory") }
}

public enum EngineError: Error, CustomStringConvertible {
    case alreadyRunning(name: String, pid: Int32?)
    case io(String)
    case socket(String)
    /// The durable state cannot be used (what and where); `--recover` keeps what is valid.
    case state(String)
    /// The state directory cannot be used at all (not ours, or held by another engine): `--recover` does not
    /// apply, and nothing in it has been touched.
    case stateDirectory(String)
    /// The initial world (from `source`, a file name) cannot be loaded; field paths are from the file's top.
    case initialWorld(source: String?, RPCError)

    public var description: String {
        switch self {
        case .alreadyRunning(let name, let pid):
            return "an engine named \"\(name)\" is already running" + (pid.map { " (pid \($0))" } ?? "")
                + "; stop it or choose another --name"
        case .io(let m), .socket(let m), .state(let m), .stateDirectory(let m): return m
        case .initialWorld(let source, let error):
            var text =
                "cannot load the initial world" + (source.map { " from \($0)" } ?? "")
                + ": \(error.name.rawValue) (\(error.code)): \(error.message)"
            for (key, value) in error.details {
                text += "\n  \(key): " + (value.stringValue ?? JSONCodec.encodeString(value))
            }
            return text
        }
    }
}
