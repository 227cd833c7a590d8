import ResponderJSON

/// `session.create`: a new session, empty or with a world and a profile.
public struct SessionCreateRequest: SessionRequest {
    public static let method = "session.create"
    public var session: String?
    public var profile: Profile?
    public var tree: NodeTree?
    public var detached: [NodeTree]?
    /// A secret (16…256 bytes): only requests carrying it may load, apply to or delete the session (7.1).
    public var owner: String?
    public init(
        session: String?, profile: Profile? = nil, tree: NodeTree? = nil, detached: [NodeTree]? = nil,
        owner: String? = nil
    ) {
        self.session = session
        self.profile = profile
        self.tree = tree
        self.detached = detached
        self.owner = owner
    }

    public struct Response: Codable, Sendable, Equatable {
        public var session: String
        public var revision: Int
        public var seq: Int
        public var seqRange: [Int]?
        public var profile: Profile
        public init(session: String, revision: Int, seq: Int, seqRange: [Int]?, profile: Profile) {
            self.session = session
            self.revision = revision
            self.seq = seq
            self.seqRange = seqRange
            self.profile = profile
        }
    }
}

/// `session.list`.
public struct SessionListRequest: RequestType {
    public static let method = "session.list"
    public init() {}

    public struct Response: Codable, Sendable, Equatable {
        public var sessions: [Summary]
        public init(sessions: [Summary]) { self.sessions = sessions }
    }
    public struct Summary: Codable, Sendable, Equatable {
        public var session: String
        public var revision: Int
        public var seq: Int
        public var nodes: Int
        public init(session: String, revision: Int, seq: Int, nodes: Int) {
            self.session = session
            self.revision = revision
            self.seq = seq
            self.nodes = nodes
        }
    }
}

/// `session.delete`.
public struct SessionDeleteRequest: OwnerGated {
    public static let method = "session.delete"
    public var session: String?
    public var owner: String?
    public init(session: String?, owner: String? = nil) {
        self.session = session
        self.owner = owner
    }

    public struct Response: Codable, Sendable, Equatable {
        public var session: String
        public var deleted: Bool
        public init(session: String, deleted: Bool) {
            self.session = session
            self.deleted = deleted
        }
    }
}

/// `session.snapshot`: everything a joining client starts from (section 14).
public struct SessionSnapshotRequest: SessionRequest {
    public static let method = "session.snapshot"
    public var session: String?
    public init(session: String?) { self.session = session }

    public struct Response: Codable, Sendable, Equatable {
        public var session: String
        public var revision: Int
        public var seq: Int
        /// The engine start this snapshot belongs to (1.7).
        public var epoch: String?
        @Held public var tree: JSON
        @Held public var detached: JSON
        public var firstResponders: FirstResponders
        public var liveTouches: [LiveTouchInfo]
        public var livePresses: [LivePressInfo]
        public var profile: Profile
        /// G11: the session's clock, in seconds.
        public var clock: Double
        /// 12.8: every gesture recognizer of the session, by id.
        public var recognizers: [GestureRecognizerInfo]
    }
}

/// F4: every attached window → its first responder, in window order.
public struct FirstResponders: Sendable, Equatable, WireValue {
    public var entries: [(window: String, responder: String?)]
    public init(_ entries: [(window: String, responder: String?)]) { self.entries = entries }
    public subscript(window: String) -> String? { entries.first { $0.window == window }?.responder }

    public init(wire value: JSON, path: String) throws(RPCError) {
        guard let members = value.objectMembers else { throw invalid(path, "expected an object") }
        entries = members.map { ($0.key, $0.value.stringValue) }
    }
    public var wire: JSON { .object(entries.map { ($0.window, JSON($0.responder)) }) }

    public static func == (a: FirstResponders, b: FirstResponders) -> Bool { a.wire == b.wire }
}

/// 12.8: a touch between began and ended/cancelled.
public struct LiveTouchInfo: Codable, Sendable, Equatable {
    public var touch: EventID
    public var client: String
    public var view: String?
    public var window: String?
    public var phase: TouchPhase
    /// G8/G9: the recognizers holding phases of it back from its view (absent when none); a touch whose
    /// ended is held stays listed, with phase `ended`, until the view gets it.
    @OmitNil public var heldBy: [String]?
    public init(
        touch: EventID, client: String, view: String?, window: String?, phase: TouchPhase, heldBy: [String]? = nil
    ) {
        self.touch = touch
        self.client = client
        self.view = view
        self.window = window
        self.phase = phase
        self.heldBy = heldBy
    }
}

/// 12.8: a press between began and ended/cancelled.
public struct LivePressInfo: Codable, Sendable, Equatable {
    public var press: EventID
    public var client: String
    public var key: String?
    public var responder: String?
    public var window: String?
    public var phase: PressPhase
    public init(press: EventID, client: String, key: String?, responder: String?, window: String?, phase: PressPhase) {
        self.press = press
        self.client = client
        self.key = key
        self.responder = responder
        self.window = window
        self.phase = phase
    }
}

/// `session.clients`: the clients that addressed the session within the idle window.
public struct SessionClientsRequest: SessionRequest {
    public static let method = "session.clients"
    public var session: String?
    public init(session: String?) { self.session = session }

    public struct Response: Codable, Sendable, Equatable {
        public var session: String
        public var clients: [Client]
        public init(session: String, clients: [Client]) {
            self.session = session
            self.clients = clients
        }
    }
    public struct Client: Codable, Sendable, Equatable {
        public var client: String
        public var name: String?
        public var kind: String?
        public var lastSeen: String
        public init(client: String, name: String?, kind: String?, lastSeen: String) {
            self.client = client
            self.name = name
            self.kind = kind
            self.lastSeen = lastSeen
        }
    }
}

/// `trace.replay`: a session's events after a seq, from the replay ring.
public struct TraceReplayRequest: SessionRequest, ValidatedParams {
    public static let method = "trace.replay"
    public var session: String?
    public var after: Int
    public var limit: Int?
    public init(session: String?, after: Int, limit: Int? = nil) {
        self.session = session
        self.after = after
        self.limit = limit
    }
    public func validate() throws(RPCError) {
        guard after >= 0 else { throw invalid("after", "must be ≥ 0") }
        if let limit, limit < 1 { throw invalid("limit", "must be ≥ 1") }
    }

    public struct Response: Codable, Sendable, Equatable {
        public var session: String
        public var seq: Int
        public var events: [Event]
        public var complete: Bool
    }
    public struct Event: Codable, Sendable, Equatable {
        public var topic: String
        @Held public var event: JSON
    }
}
