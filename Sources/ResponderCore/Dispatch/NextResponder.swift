import ResponderProtocol

extension World {
    /// The next responder of `id` in this world (N1–N3), computed from the current tree each time it is
    /// asked (N4): nothing is cached between hops.
    public func nextResponder(of id: String) -> String? {
        guard let slot = nodes.slot(of: id) else { return nil }
        return nextResponder(ofSlot: slot)?.id
    }

    /// `nextResponder(of:)` of the node in `slot`: the next responder's id as the tree names it (its child's
    /// `parent`, its parent's `children`, `presentedBy`) and its slot. The tree is followed by slot, and only a
    /// presenter is looked up by id: a walk up the chain would otherwise hash each hop's id twice more.
    func nextResponder(ofSlot slot: Int) -> (id: String, slot: Int)? {
        switch nodes.read(slot: slot, { $0.pointee.spec.kind }) {
        case .application:
            // N3: the application's next is its delegate (a responder that is not a view, controller or app).
            let delegate = nodes.withChildSlots(ofSlot: slot) { children in
                children.firstIndex { $0 >= 0 && nodes.read(slot: Int($0), { $0.pointee.spec.kind }) == .appDelegate }
                    .map { (position: $0, slot: Int(children[$0])) }
            }
            guard let delegate else { return nil }
            return (nodes.read(slot: slot) { $0.pointee.children[delegate.position] }, delegate.slot)
        case .appDelegate:
            return nil  // N3: the end of every chain
        case .window:
            // N3: an attached window hands on to the application.
            let app = nodes.applicationSlot
            guard app >= 0, nodes.read(slot: slot, { $0.pointee.parent == World.rootID }) else { return nil }
            return (World.rootID, app)
        case .viewController:
            // N2: a presented controller hands on to its presenter; otherwise to its view's superview,
            // which in this tree is the controller's parent (a view, or the window for a root controller).
            if let presenter = nodes.read(slot: slot, { $0.pointee.spec.presentedBy }),
                let presenterSlot = nodes.slot(of: presenter), presenterSlot != slot,
                nodes.read(slot: presenterSlot, { $0.pointee.spec.kind }) == .viewController
            {
                return (presenter, presenterSlot)
            }
            return parent(ofSlot: slot) { $0.isView }
        case .view, .control, .textField, .textView:
            // N1: the controller whose root view this is, else the superview; none when detached.
            return parent(ofSlot: slot) { $0 == .viewController || $0.isView }
        }
    }

    /// The parent of the node in `slot`, named as the node names it, when `accepts` its kind.
    private func parent(ofSlot slot: Int, accepts: (NodeKind) -> Bool) -> (id: String, slot: Int)? {
        let parent = Int(nodes.parentSlot(ofSlot: slot))
        guard parent >= 0, accepts(nodes.read(slot: parent, { $0.pointee.spec.kind })),
            let id = nodes.read(slot: slot, { $0.pointee.parent })
        else { return nil }
        return (id, parent)
    }

    /// The responder chain from `id` (inclusive), one hop at a time; stops at a repeated responder so a
    /// presentedBy cycle cannot loop forever.
    public func responderChain(from id: String) -> [String] {
        var chain: [String] = []
        var seen = CycleGuard()
        var current: String? = contains(id) ? id : nil
        while let c = current, seen.firstPass(c) {
            chain.append(c)
            current = nextResponder(of: c)
        }
        return chain
    }

    /// F2/F7: the window a responder's chain reaches (its nearest attached window), if any.
    func responderWindow(of id: String) -> String? {
        guard let node = nodes[id] else { return nil }
        switch node.kind {
        case .application, .appDelegate: return nil
        default: return window(of: id)
        }
    }
}

/// Resolves responders during one dispatch: the current world first; a node that a tree change just
/// removed is still reachable through the world as it was (`before`), as a removed UIView object still
/// exists, but its chain ends where it left the tree (its old parent is cut off). Used by T6 cancellation.
///
/// The world itself is given to each question rather than kept: a copy of it is a retain and a release for each of
/// its tables. A dispatch moves no node (only a batch of ops does), so the chain is the same through it; the fields
/// it changes (K3–K8) are read as they stand when asked.
struct Responders {
    let before: World?

    init(before: World? = nil) {
        self.before = before
    }

    func node(_ id: String, in world: World) -> Node? { world[id] ?? before?[id] }

    /// `body` of node `id` read in place (`World.read`), from the world or, gone from it, from before the change:
    /// a walk asks one or two fields of each responder, and `node(_:in:)` copies the whole node.
    @inline(__always)
    func read<R>(_ id: String, in world: World, _ body: (UnsafePointer<Node>) -> R) -> R? {
        if let r = world.read(id, body) { return r }
        return before?.read(id, body)
    }

    /// N4: computed at each hop from the current tree.
    func next(of id: String, in world: World) -> String? {
        if world.contains(id) { return world.nextResponder(of: id) }
        guard let before, before.contains(id), let next = before.nextResponder(of: id) else { return nil }
        return world.contains(next) ? nil : next
    }

    /// A responder a walk has reached: its id as the walk names it, and where its node is stored — `slot` in
    /// the world, or in `before` when `removed`. A walk goes from hop to hop by slot, where by id each hop
    /// would be looked up three times (read, `next(of:)`'s presence check and `nextResponder(of:)`).
    struct Hop {
        let id: String
        let slot: Int
        let removed: Bool
    }

    /// Where the walk finds `id`: in the world, else before the change (as `read(_:in:_:)`).
    func hop(_ id: String, in world: World) -> Hop? {
        if let slot = world.nodes.slot(of: id) { return Hop(id: id, slot: slot, removed: false) }
        guard let slot = before?.nodes.slot(of: id) else { return nil }
        return Hop(id: id, slot: slot, removed: true)
    }

    /// `body` of the node at `hop`, read in place.
    @inline(__always)
    func read<R>(_ hop: Hop, in world: World, _ body: (UnsafePointer<Node>) -> R) -> R {
        guard hop.removed, let before else { return world.nodes.read(slot: hop.slot, body) }
        return before.nodes.read(slot: hop.slot, body)
    }

    /// `next(of:)` by slot. A hop in the world leads to one in the world; a removed node's chain goes on among
    /// the removed nodes and ends where it reaches one still in the world.
    func next(of hop: Hop, in world: World) -> Hop? {
        guard hop.removed, let before else {
            return world.nextResponder(ofSlot: hop.slot).map { Hop(id: $0.id, slot: $0.slot, removed: false) }
        }
        guard let next = before.nextResponder(ofSlot: hop.slot), !world.contains(next.id) else { return nil }
        return Hop(id: next.id, slot: next.slot, removed: true)
    }
}
