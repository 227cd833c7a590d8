import Foundation
import ResponderJSON
import ResponderLocal
import ResponderProtocol

/// Where an engine listens, as read from its discovery file or given explicitly.
public struct EngineAddress: Sendable, Equatable {
    public var rpc: String
    public var events: String
    public var name: String?
    public var pid: Int?
    /// The engine's CURVE public key (Z85), for tcp endpoints: the discovery file's `curveServerKey`, or
    /// `$RESPONDER_SERVER_KEY` with explicit endpoints. Connections then use CURVE with the client's own keypair.
    public var serverKey: String?

    public init(rpc: String, events: String, name: String? = nil, pid: Int? = nil, serverKey: String? = nil) {
        self.rpc = rpc
        self.events = events
        self.name = name
        self.pid = pid
        self.serverKey = serverKey
    }

    /// `$XDG_RUNTIME_DIR/responder`, else `/tmp/responder-<uid>` (the engine's default directory).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        Discovery.defaultDirectory(environment: environment)
    }

    /// Finds the engine: explicit endpoints first, then RESPONDER_RPC + RESPONDER_EVENTS, then the discovery file.
    public static func locate(
        name: String = "default", directory: String? = nil, rpc: String? = nil, events: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> EngineAddress {
        let serverKey = environment["RESPONDER_SERVER_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        if let rpc, let events { return EngineAddress(rpc: rpc, events: events, serverKey: serverKey) }
        if let rpc = environment["RESPONDER_RPC"], let events = environment["RESPONDER_EVENTS"], !rpc.isEmpty,
            !events.isEmpty
        {
            return EngineAddress(rpc: rpc, events: events, serverKey: serverKey)
        }
        let dir = directory ?? defaultDirectory(environment: environment)
        let path = Discovery.filePath(directory: dir, name: name)
        let data = try DiscoveryTrust.read(path, directory: dir, name: name)
        let file: Discovery.File?
        do { file = Discovery.File(json: try JSONCodec.decode(data)) } catch {
            throw .noEngine("the discovery file \(path) is not valid JSON: \(error)")
        }
        guard let file else {
            throw .noEngine("the discovery file \(path) lacks rpc/events endpoints")
        }
        let pid = file.pid
        // A discovery file whose process is gone was left by a crash: say so rather than hang on a dead socket.
        if let pid, !isAlive(pid) {
            throw .noEngine("the engine named \"\(name)\" is not running (pid \(pid) in \(path) is gone)")
        }
        return EngineAddress(
            rpc: file.rpc, events: file.events, name: file.name, pid: pid, serverKey: file.curveServerKey)
    }

    /// Whether process `pid` exists (one we may not signal counts as existing).
    public static func isAlive(_ pid: Int) -> Bool {
        kill(pid_t(pid), 0) == 0 || errno != ESRCH
    }
}

public enum ClientError: Error, CustomStringConvertible, Sendable {
    case noEngine(String)
    case transport(String)
    /// No reply within `seconds`; `pid` is the engine's process (from its discovery file), still alive when the
    /// wait ended, or nil when the endpoints were given explicitly.
    case timeout(method: String, seconds: Double, pid: Int? = nil)
    /// The engine's process ended while the request waited for its reply.
    case engineGone(method: String, pid: Int)
    case badReply(String)
    /// The engine answered with a JSON-RPC error.
    case rpc(RPCError)

    public var description: String {
        switch self {
        case .noEngine(let m), .transport(let m), .badReply(let m): return m
        case .timeout(let method, let seconds, let pid?):
            return
                "no reply to \(method): the engine (pid \(pid)) has not answered within \(Self.seconds(seconds)) s; it may be busy with a large request"
        case .timeout(let method, let seconds, nil):
            return
                "no reply to \(method) within \(Self.seconds(seconds)) s: the engine may be busy with a large request, or not running"
        case .engineGone(let method, let pid):
            return "the engine (pid \(pid)) is gone: it stopped before answering \(method)"
        case .rpc(let e): return "\(e.name.rawValue) (\(e.code)): \(e.message)"
        }
    }

    /// `10`, `2.5`: seconds without a needless ".0".
    public static func seconds(_ s: Double) -> String {
        s.rounded() == s && abs(s) < 1e9 ? String(Int(s)) : String(format: "%.1f", s)
    }
}
