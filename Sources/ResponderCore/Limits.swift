/// Configurable bounds on what one session may hold; exceeding one is LIMIT_EXCEEDED, never a crash.
/// `maxNodes` counts every node (the application, windows, controllers, detached subtrees): its default, 2²⁰, leaves
/// a million views room for the nodes around them.
public struct Limits: Sendable, Equatable {
    public var maxNodes: Int
    public var maxDepth: Int
    public var maxMessageBytes: Int
    public var maxOpsPerBatch: Int

    public init(
        maxNodes: Int = 1 << 20, maxDepth: Int = 200_000, maxMessageBytes: Int = 64 << 20,
        maxOpsPerBatch: Int = 1_000_000
    ) {
        self.maxNodes = maxNodes
        self.maxDepth = maxDepth
        self.maxMessageBytes = maxMessageBytes
        self.maxOpsPerBatch = maxOpsPerBatch
    }
    public static let `default` = Limits()
}
