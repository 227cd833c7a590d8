import ResponderJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a client finds a running engine: the engine writes `<directory>/<name>.json` naming its endpoints, and
/// clients read it. Defined once here for both sides.
public enum Discovery {
    /// `$XDG_RUNTIME_DIR/responder`, else `/tmp/responder-<uid>`: where engines put their discovery files, lock
    /// files and default ipc sockets, and where clients look for them.
    public static func defaultDirectory(environment: [String: String]) -> String {
        defaultDirectory(xdgRuntimeDir: environment["XDG_RUNTIME_DIR"])
    }

    /// The default directory for this process's environment.
    public static func defaultDirectory() -> String {
        defaultDirectory(xdgRuntimeDir: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) })
    }

    private static func defaultDirectory(xdgRuntimeDir: String?) -> String {
        if let xdg = xdgRuntimeDir, !xdg.isEmpty {
            var base = Substring(xdg)
            while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
            return base == "/" ? "/responder" : base + "/responder"
        }
        return "/tmp/responder-\(getuid())"
    }

    /// `$XDG_STATE_HOME/responder/<name>`, else `$HOME/.local/state/responder/<name>`: the engine's state
    /// directory (its CURVE key, `authorized_clients`), where `responder keygen --authorize` adds a client key.
    public static func defaultStateDirectory(name: String, environment: [String: String]) -> String {
        let nonEmpty = { (key: String) in environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        // The XDG spec ignores a relative XDG_STATE_HOME.
        let base =
            nonEmpty("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((nonEmpty("HOME") ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/")
                + "/.local/state")
        return "\(base)/responder/\(name)"
    }

    /// The discovery file of the engine `name` in `directory`.
    public static func filePath(directory: String, name: String) -> String { "\(directory)/\(name).json" }

    /// The discovery file's content: a JSON object with these keys.
    public struct File: Sendable, Equatable {
        public enum Key: String, CaseIterable, Sendable {
            case name, pid, version
            case protocolVersion = "protocol"
            case rpc, events, startedAt, curveServerKey
        }

        /// The engine's instance name.
        public var name: String?
        /// The engine's process id (a file naming a gone process was left by a crash).
        public var pid: Int?
        /// The engine's version.
        public var version: String?
        /// The protocol version the engine speaks.
        public var protocolVersion: Int?
        /// The JSON-RPC (ROUTER) endpoint.
        public var rpc: String
        /// The events (XPUB) endpoint.
        public var events: String
        /// When the engine started, ISO 8601.
        public var startedAt: String?
        /// The engine's CURVE public key (Z85) when an endpoint is tcp with CURVE (section 2.1).
        public var curveServerKey: String?

        public init(
            name: String?, pid: Int?, version: String?, protocolVersion: Int?, rpc: String, events: String,
            startedAt: String?, curveServerKey: String? = nil
        ) {
            self.name = name
            self.pid = pid
            self.version = version
            self.protocolVersion = protocolVersion
            self.rpc = rpc
            self.events = events
            self.startedAt = startedAt
            self.curveServerKey = curveServerKey
        }

        /// Reads the file's object; nil when the endpoints are missing (the other keys are optional).
        public init?(json: JSON) {
            guard let rpc = json[Key.rpc.rawValue]?.stringValue, let events = json[Key.events.rawValue]?.stringValue
            else { return nil }
            self.init(
                name: json[Key.name.rawValue]?.stringValue, pid: json[Key.pid.rawValue]?.intValue,
                version: json[Key.version.rawValue]?.stringValue,
                protocolVersion: json[Key.protocolVersion.rawValue]?.intValue,
                rpc: rpc, events: events, startedAt: json[Key.startedAt.rawValue]?.stringValue,
                curveServerKey: json[Key.curveServerKey.rawValue]?.stringValue)
        }

        /// The file's object, keys in `Key` order; absent values are left out.
        public var json: JSON {
            var members: [(key: String, value: JSON)] = []
            for key in Key.allCases {
                let value: JSON?
                switch key {
                case .name: value = name.map(JSON.string)
                case .pid: value = pid.map { JSON($0) }
                case .version: value = version.map(JSON.string)
                case .protocolVersion: value = protocolVersion.map { JSON($0) }
                case .rpc: value = .string(rpc)
                case .events: value = .string(events)
                case .startedAt: value = startedAt.map(JSON.string)
                case .curveServerKey: value = curveServerKey.map(JSON.string)
                }
                if let value { members.append((key.rawValue, value)) }
            }
            return .object(members)
        }
    }
}
