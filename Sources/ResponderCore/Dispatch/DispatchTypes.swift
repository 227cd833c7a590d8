import ResponderProtocol

/// The answer of a dispatching request: the outcome fields (returned at the top level of the result),
/// the trace that explains them, and the first-responder changes it caused.
public struct Dispatch: Sendable {
    /// The outcome fields, e.g. `deliveries` or `performed`/`by`/`visited` — without the trace.
    public var result: JSON
    /// `{kind, steps, outcome}`; `outcome` repeats `result`.
    public var trace: JSON
    /// One `{window, from, to, reason}` per first-responder change, in order.
    public var focus: [JSON]

    public init(result: JSON, trace: JSON, focus: [JSON]) {
        self.result = result
        self.trace = trace
        self.focus = focus
    }
}

/// The answer of a tree change: what the world did, the ops to publish, and the consequences for live
/// touches, presses and first responders (T6, F6), if there were any.
public struct TreeChange: Sendable {
    public var batch: AppliedBatch
    public var ops: [JSON]
    public var consequences: Dispatch?

    public init(batch: AppliedBatch, ops: [JSON], consequences: Dispatch?) {
        self.batch = batch
        self.ops = ops
        self.consequences = consequences
    }
}
