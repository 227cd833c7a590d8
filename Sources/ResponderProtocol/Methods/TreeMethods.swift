/// `tree.get`: a node and its subtree.
public struct TreeGetRequest: SessionRequest {
    public static let method = "tree.get"
    public var session: String?
    public var id: String?
    public init(session: String?, id: String? = nil) {
        self.session = session
        self.id = id
    }

    public struct Response: Codable, Sendable, Equatable {
        public var revision: Int
        public var seq: Int
        @Held public var tree: JSON
    }
}

/// `tree.load`: replaces the world.
public struct TreeLoadRequest: SessionRequest {
    public static let method = "tree.load"
    public var session: String?
    public var tree: NodeTree
    public var detached: [NodeTree]?
    public var ifRevision: Int?
    public init(session: String?, tree: NodeTree, detached: [NodeTree]? = nil, ifRevision: Int? = nil) {
        self.session = session
        self.tree = tree
        self.detached = detached
        self.ifRevision = ifRevision
    }
    public typealias Response = Published<Empty>
}

/// `tree.apply`: one atomic batch of ops.
public struct TreeApplyRequest: SessionRequest {
    public static let method = "tree.apply"
    public var session: String?
    public var ops: WireOps
    public var ifRevision: Int?
    public init(session: String?, ops: [GuardedOp], ifRevision: Int? = nil) {
        self.session = session
        self.ops = WireOps(ops)
        self.ifRevision = ifRevision
    }
    public typealias Response = Published<Empty>
}
