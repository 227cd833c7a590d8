import ResponderProtocol

extension World {
    /// The next responder of `id` in this world (N1–N3), computed from the current tree each time it is
    /// asked (N4): nothing is cached between hops.
    public func nextResponder(of id: String) -> String? {
        // Fields read in place: a copy of each node on the way would be most of a hop (a tap makes a dozen).
        guard
            let (kind, parent, presentedBy) = read(
                id, { ($0.pointee.spec.kind, $0.pointee.parent, $0.pointee.spec.presentedBy) })
        else { return nil }
        switch kind {
        case .application:
            // N3: the application's next is its delegate (a responder that is not a view, controller or app).
            return read(id, { $0.pointee.children })?.first { read($0, { $0.pointee.spec.kind }) == .appDelegate }
        case .appDelegate:
            return nil  // N3: the end of every chain
        case .window:
            // N3: an attached window hands on to the application.
            return parent == World.rootID ? World.rootID : nil
        case .viewController:
            // N2: a presented controller hands on to its presenter; otherwise to its view's superview,
            // which in this tree is the controller's parent (a view, or the window for a root controller).
            if let presenter = presentedBy, presenter != id,
                read(presenter, { $0.pointee.spec.kind }) == .viewController
            {
                return presenter
            }
            guard let parent, read(parent, { $0.pointee.spec.kind.isView }) == true else { return nil }
            return parent
        case .view, .control, .textField, .textView:
            // N1: the controller whose root view this is, else the superview; none when detached.
            guard let parent, let parentKind = read(parent, { $0.pointee.spec.kind }) else { return nil }
            return parentKind == .viewController || parentKind.isView ? parent : nil
        }
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
struct Responders {
    let world: World
    let before: World?

    init(_ world: World, before: World? = nil) {
        self.world = world
        self.before = before
    }

    func node(_ id: String) -> Node? { world[id] ?? before?[id] }

    /// `body` of node `id` read in place (`World.read`), from the world or, gone from it, from before the change:
    /// a walk asks one or two fields of each responder, and `node(_:)` copies the whole node.
    @inline(__always)
    func read<R>(_ id: String, _ body: (UnsafePointer<Node>) -> R) -> R? {
        if let r = world.read(id, body) { return r }
        return before?.read(id, body)
    }

    /// N4: computed at each hop from the current tree.
    func next(of id: String) -> String? {
        if world.contains(id) { return world.nextResponder(of: id) }
        guard let before, before.contains(id), let next = before.nextResponder(of: id) else { return nil }
        return world.contains(next) ? nil : next
    }
}
