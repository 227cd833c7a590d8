import ResponderProtocol

/// The world read in place for its text (`NodeTreeSource`, in the protocol: the core writes no bytes).
extension World: NodeTreeSource {
    /// A node's handle is its slot in the node table.
    public func handle(of id: String) -> Int32? { nodes.slot(of: id).map { Int32(truncatingIfNeeded: $0) } }

    /// The children's slots are the table's own (each names a node: a world's children always do).
    public func withNode<R>(_ node: Int32, _ body: (_ spec: NodeSpec, _ revision: Int, _ children: [Int32]) -> R) -> R {
        let slot = Int(node)
        return nodes.read(slot: slot) { body($0.pointee.spec, $0.pointee.revision, nodes.childSlots(ofSlot: slot)) }
    }

    public func forEachNode(_ body: (_ kind: NodeKind, _ id: String) -> Void) {
        nodes.forEach { body($0.pointee.spec.kind, $0.pointee.spec.id) }
    }
    public var detachedRootIDs: [String] { detachedRoots }
    public var nodeCount: Int { nodes.count }
    public static var rootNodeID: String { rootID }
}
