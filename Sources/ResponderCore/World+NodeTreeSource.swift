import ResponderProtocol

/// The world read in place for its text (`NodeTreeSource`, in the protocol: the core writes no bytes).
extension World: NodeTreeSource {
    public func withNode<R>(_ id: String, _ body: (_ spec: NodeSpec, _ revision: Int, _ children: [String]) -> R) -> R?
    {
        nodes.read(id) { body($0.pointee.spec, $0.pointee.revision, $0.pointee.children) }
    }

    public func forEachNode(_ body: (_ kind: NodeKind, _ id: String) -> Void) {
        nodes.forEach { body($0.pointee.spec.kind, $0.pointee.spec.id) }
    }
    public var detachedRootIDs: [String] { detachedRoots }
    public var nodeCount: Int { nodes.count }
    public static var rootNodeID: String { rootID }
}
