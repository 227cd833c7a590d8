import ResponderCore
import ResponderProtocol

// Stand-in until ResponderCore's SessionState (dispatch) lands; same names and signatures.
struct SessionState {
    private(set) var world: World
    init(world: World = World()) { self.world = world }
    mutating func apply(_ ops: [GuardedOp], ifRevision: Int?, limits: Limits) throws(RPCError) -> TreeChange {
        let batch = try world.apply(ops, ifRevision: ifRevision, limits: limits)
        return TreeChange(batch: batch, ops: ops.map(\.json), consequences: nil)
    }
    mutating func load(tree: JSON, detached: [JSON], limits: Limits) throws(RPCError) -> TreeChange {
        try world.load(tree: tree, detached: detached, limits: limits)
        return TreeChange(batch: AppliedBatch(revision: world.revision, removed: [], changed: []), ops: [], consequences: nil)
    }
    var firstResponders: JSON { .object([]) }
    var liveTouches: JSON { .array([]) }
}
struct TreeChange {
    var batch: AppliedBatch
    var ops: [JSON]
    var consequences: Dispatch?
}
struct Dispatch {
    var result: JSON
    var trace: JSON
    var focus: [JSON]
}
struct Profile {
    static let uikit = Profile()
    init() {}
    init(json: JSON) throws(RPCError) {}
    var json: JSON { ["name": "uikit"] }
}
extension SessionState {
    init(world: World, profile: Profile) { self.init(world: world) }
    var profile: Profile { .uikit }
}
