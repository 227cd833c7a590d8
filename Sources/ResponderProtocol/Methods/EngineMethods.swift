/// `engine.info`: who the engine is and what it accepts.
public struct EngineInfoRequest: RequestType {
    public static let method = "engine.info"
    public init() {}

    public struct Response: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var `protocol`: Int
        public var pid: Int
        public var rpc: String
        public var events: String
        public var startedAt: String
        public var sessions: Int
        public var limits: EngineLimits
        public var methods: [String]
        public var client: String
        /// New at each engine start (1.7): a client that sees it change re-snapshots.
        public var epoch: String?
        /// Where and how the engine keeps sessions across restarts (1.7).
        public var durability: EngineDurability?
        public init(
            name: String, version: String, protocol: Int, pid: Int, rpc: String, events: String, startedAt: String,
            sessions: Int, limits: EngineLimits, methods: [String], client: String
        ) {
            self.name = name
            self.version = version
            self.protocol = `protocol`
            self.pid = pid
            self.rpc = rpc
            self.events = events
            self.startedAt = startedAt
            self.sessions = sessions
            self.limits = limits
            self.methods = methods
            self.client = client
        }
    }
}

/// engine.info `durability`: `mode` none, normal or full; `stateDir` nil when nothing is kept.
public struct EngineDurability: Codable, Sendable, Equatable {
    public var mode: String
    public var stateDir: String?
    public init(mode: String, stateDir: String?) {
        self.mode = mode
        self.stateDir = stateDir
    }
}

public struct EngineLimits: Codable, Sendable, Equatable {
    public var maxNodes: Int
    public var maxDepth: Int
    public var maxMessageBytes: Int
    public var maxOpsPerBatch: Int
    public var replayBuffer: Int
    // Revision 1.7 (resource bounds): optional here so that a client reading an older engine still decodes.
    public var replayBytes: Int?
    public var maxSessions: Int?
    public var maxClients: Int?
    public var replyHwm: Int?
    public var maxFrameBytes: Int?
    // Revision 1.9.
    public var handshakeTimeoutMs: Int?
    public var maxClientStringBytes: Int?
    public init(
        maxNodes: Int, maxDepth: Int, maxMessageBytes: Int, maxOpsPerBatch: Int, replayBuffer: Int,
        replayBytes: Int? = nil, maxSessions: Int? = nil, maxClients: Int? = nil, replyHwm: Int? = nil,
        maxFrameBytes: Int? = nil,
        handshakeTimeoutMs: Int? = nil, maxClientStringBytes: Int? = nil
    ) {
        self.handshakeTimeoutMs = handshakeTimeoutMs
        self.maxClientStringBytes = maxClientStringBytes
        self.maxNodes = maxNodes
        self.maxDepth = maxDepth
        self.maxMessageBytes = maxMessageBytes
        self.maxOpsPerBatch = maxOpsPerBatch
        self.replayBuffer = replayBuffer
        self.replayBytes = replayBytes
        self.maxSessions = maxSessions
        self.maxClients = maxClients
        self.replyHwm = replyHwm
        self.maxFrameBytes = maxFrameBytes
    }
}

/// `client.hello`: names the calling client; its name then appears in events' `cause.client`.
public struct ClientHelloRequest: RequestType, ValidatedParams {
    public static let method = "client.hello"
    public var name: String
    public var kind: String?
    /// A secret of the client's (14.5): a later connection with the same client id must repeat it to take over
    /// the touches and presses this one owns.
    public var token: String?
    public init(name: String, kind: String? = nil, token: String? = nil) {
        self.name = name
        self.kind = kind
        self.token = token
    }
    /// The default of the engine's bound on `name` and `kind` (`limits.maxClientStringBytes`): it keeps both per client.
    public static let maxStringBytes = 128

    public func validate() throws(RPCError) {
        guard !name.isEmpty else { throw invalid("name", "must not be empty") }
        if let token, token.utf8.count < 16 || token.utf8.count > 256 { throw invalid("token", "must be 16…256 bytes") }
    }

    public struct Response: Codable, Sendable, Equatable {
        public var client: String
        public var name: String
        public init(client: String, name: String) {
            self.client = client
            self.name = name
        }
    }
}
