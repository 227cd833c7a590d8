import ResponderProtocol

/// The answer of a tree change: what the world did, the ops it applied, and the consequences for live
/// touches, presses and first responders (T6, F6), if there were any.
public struct TreeChange: Sendable {
    public var batch: AppliedBatch
    /// The ops as applied (empty for a load: the whole tree is published instead).
    public var ops: [GuardedOp]
    public var consequences: Traced<TreeChangeOutcome>?

    public init(batch: AppliedBatch, ops: [GuardedOp], consequences: Traced<TreeChangeOutcome>?) {
        self.batch = batch
        self.ops = ops
        self.consequences = consequences
    }
}
