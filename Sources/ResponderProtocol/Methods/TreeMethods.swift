import ResponderJSON

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
public struct TreeLoadRequest: OwnerGated {
    public static let method = "tree.load"
    public var session: String?
    public var owner: String?
    /// Read after `ifRevision` is checked.
    public var tree: Deferred<NodeTree>
    public var detached: [Deferred<NodeTree>]?
    public var ifRevision: Int?
    public init(session: String?, tree: NodeTree, detached: [NodeTree]? = nil, ifRevision: Int? = nil) {
        self.session = session
        self.tree = Deferred(tree)
        self.detached = detached?.map(Deferred.init)
        self.ifRevision = ifRevision
    }

    /// The world to load: the tree, then the detached subtrees.
    public func world() throws(RPCError) -> (tree: NodeTree, detached: [NodeTree]) {
        let root = try tree.read()
        var subtrees: [NodeTree] = []
        for d in detached ?? [] { subtrees.append(try d.read()) }
        return (root, subtrees)
    }
    public typealias Response = Published<Empty>
}

/// `tree.apply`: one atomic batch of ops.
public struct TreeApplyRequest: OwnerGated, DryRunnable {
    public static let method = "tree.apply"
    /// `dryRun: true`: answer what it would do, change nothing (section 12.2).
    public var dryRun: Bool? = nil
    public var session: String?
    public var owner: String?
    public var ops: WireOps
    public var ifRevision: Int?
    public init(session: String?, ops: [GuardedOp], ifRevision: Int? = nil) {
        self.session = session
        self.ops = WireOps(ops)
        self.ifRevision = ifRevision
    }
    public typealias Response = Published<Empty>
}
