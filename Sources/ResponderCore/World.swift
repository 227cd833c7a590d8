import ResponderProtocol

/// A session's responder world: a flat table of nodes rooted at the application `app`, plus detached
/// subtrees (views created but not yet added to a window). A value type: copying it is a snapshot.
public struct World: Sendable, Equatable {
    public static let rootID = "app"

    public internal(set) var nodes = NodeTable()
    /// Roots of detached subtrees, in creation order.
    public internal(set) var detachedRoots: [String] = []
    public internal(set) var revision: Int
    /// Gesture recognizer id → the view or window it is attached to (ids are unique in the session; their
    /// own id space, apart from node ids).
    public internal(set) var recognizerOwners: [String: String] = [:]
    /// K9: presenting view controller → the controllers that name it in `presentedBy`.
    public internal(set) var presented: [String: [String]] = [:]

    /// A world holding only the application.
    public init() {
        var app = Node(id: World.rootID, kind: .application)
        app.revision = 1
        nodes[World.rootID] = app
        revision = 1
    }

    public subscript(id: String) -> Node? { nodes[id] }

    /// Whether node `id` exists, without the copy of it `self[id] != nil` makes.
    public func contains(_ id: String) -> Bool { nodes.slot(of: id) != nil }

    /// `body` of node `id`, read in place. `nodes[id]` hands out a copy of the whole node (a retain and a
    /// release per reference field), which hit-testing would pay for every subview it lists.
    @inline(__always)
    func read<R>(_ id: String, _ body: (UnsafePointer<Node>) -> R) -> R? { nodes.read(id, body) }

    /// A recognizer and the view (or window) it is attached to.
    public func recognizer(_ id: String) -> (view: String, spec: GestureRecognizerSpec)? {
        withRecognizer(id) { ($0, $1.pointee) }
    }

    /// `body` of recognizer `id`'s view and spec, the spec read where it is stored: a copy of it is a retain and
    /// a release for each of its strings and arrays, and a tap asks about recognizers a dozen times.
    func withRecognizer<R>(_ id: String, _ body: (_ view: String, _ spec: UnsafePointer<GestureRecognizerSpec>) -> R)
        -> R?
    {
        if let view = recognizerOwners[id], let slot = nodes.slot(of: view),
            let result = attached(id, on: view, slot: slot, body)
        {
            return result
        }
        // K8: a scroll view's built-in pan.
        guard let owner = builtInPanOwner(id), let pan = builtInPan(of: owner) else { return nil }
        return withUnsafePointer(to: pan) { body(owner, $0) }
    }

    /// `withRecognizer`, looking on `view` first, and for `view` in `slot` first: a run knows the view its
    /// recognizer was attached to and the slot it was in, and there the lookup is one read of that node with one
    /// comparison of ids (`NodeTable.slot(of:guess:)`), where the owner map hashes the recognizer's id with
    /// SipHash and the node table the view's (a tap asks a dozen times). Ids are unique in the session, so one
    /// found there is the one; one moved since (or a scroll view's built-in pan, which no node lists) is found the
    /// general way.
    func withRecognizer<R>(
        _ id: String, on view: String, slot: Int,
        _ body: (_ view: String, _ spec: UnsafePointer<GestureRecognizerSpec>) -> R
    ) -> R? {
        if let slot = nodes.slot(of: view, guess: slot), let result = attached(id, on: view, slot: slot, body) {
            return result
        }
        return withRecognizer(id, body)
    }

    /// `body` of recognizer `id` where `view`, in `slot`, lists it; nil (not `.some(nil)`) when `view` does not.
    @inline(__always)
    private func attached<R>(
        _ id: String, on view: String, slot: Int,
        _ body: (_ view: String, _ spec: UnsafePointer<GestureRecognizerSpec>) -> R
    ) -> R?? {
        var result: R??
        nodes.read(slot: slot) { node in
            node.pointee.spec.gestureRecognizers.withUnsafeBufferPointer { specs in
                if let i = specs.firstIndex(where: { $0.id == id }) {
                    result = .some(body(view, specs.baseAddress! + i))
                }
            }
        }
        return result
    }

    public var root: Node { nodes[World.rootID]! }
    public var count: Int { nodes.count }

    /// The top of the tree `id` belongs to: `app`, or the root of a detached subtree.
    public func treeRoot(of id: String) -> String? {
        // Parents read in place: a walk up would otherwise copy every node on the way.
        guard contains(id) else { return nil }
        var current = id
        while let p = read(current, { $0.pointee.parent }) ?? nil, contains(p) { current = p }
        return current
    }

    /// Whether `id` is in the application's tree (not detached).
    public func isAttached(_ id: String) -> Bool { treeRoot(of: id) == World.rootID }

    /// Whether `ancestor` is `id` or one of its ancestors.
    public func isAncestor(_ ancestor: String, of id: String) -> Bool {
        var current: String? = id
        while let c = current {
            if c == ancestor { return true }
            current = nodes.read(c) { $0.pointee.parent } ?? nil
        }
        return false
    }

    /// The nearest window at or above `id` that is attached to the application, if any.
    public func window(of id: String) -> String? {
        // Up by slot, each node read where it is stored: only `id` is looked up, and only the answer's id is made.
        guard var slot = nodes.slot(of: id) else { return nil }
        var window = -1
        while true {
            let (kind, hasParent) = nodes.read(slot: slot) { ($0.pointee.spec.kind, $0.pointee.parent != nil) }
            // K9: out of the window.
            if kind == .viewController, !presented.isEmpty,
                isCoveredController(nodes.read(slot: slot) { $0.pointee.spec.id })
            {
                return nil
            }
            if kind == .window, window < 0 { window = slot }
            guard hasParent else {
                guard window >= 0, nodes.read(slot: slot, { $0.pointee.spec.id == World.rootID }) else { return nil }
                return nodes.read(slot: window) { $0.pointee.spec.id }
            }
            let parent = nodes.parentSlot(ofSlot: slot)
            guard parent >= 0 else { return nil }
            slot = Int(parent)
        }
    }

    /// Attached windows in the application's child order.
    /// Read in place: copying the root and each child node out (a retain per reference each holds) would be most
    /// of a light request such as responder.first.
    public var windows: [String] {
        (read(World.rootID) { $0.pointee.children } ?? []).filter { id in
            read(id) { $0.pointee.spec.kind == .window } == true
        }
    }

    /// The key window: the attached window marked `key`, if any.
    public var keyWindow: String? {
        (read(World.rootID) { $0.pointee.children } ?? []).first { id in
            read(id) { $0.pointee.spec.kind == .window && $0.pointee.spec.key } == true
        }
    }

    /// Ids of `id` and everything under it, parents before children (iterative).
    public func subtree(_ id: String) -> [String] {
        guard contains(id) else { return [] }
        var out: [String] = []
        var stack = [id]
        while let c = stack.popLast() {
            out.append(c)
            nodes.read(c) { stack.append(contentsOf: $0.pointee.children.reversed()) }
        }
        return out
    }
}
