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
        public init(name: String, version: String, protocol: Int, pid: Int, rpc: String, events: String, startedAt: String,
                    sessions: Int, limits: EngineLimits, methods: [String], client: String) {
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

public struct EngineLimits: Codable, Sendable, Equatable {
    public var maxNodes: Int
    public var maxDepth: Int
    public var maxMessageBytes: Int
    public var maxOpsPerBatch: Int
    public var replayBuffer: Int
    public init(maxNodes: Int, maxDepth: Int, maxMessageBytes: Int, maxOpsPerBatch: Int, replayBuffer: Int) {
        self.maxNodes = maxNodes
        self.maxDepth = maxDepth
        self.maxMessageBytes = maxMessageBytes
        self.maxOpsPerBatch = maxOpsPerBatch
        self.replayBuffer = replayBuffer
    }
}

/// `client.hello`: names the calling client; its name then appears in events' `cause.client`.
public struct ClientHelloRequest: RequestType, ValidatedParams {
    public static let method = "client.hello"
    public var name: String
    public var kind: String?
    public init(name: String, kind: String? = nil) {
        self.name = name
        self.kind = kind
    }
    public func validate() throws(RPCError) {
        guard !name.isEmpty, name.utf8.count <= 128 else { throw invalid("name", "must be 1…128 bytes") }
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
