import ResponderProtocol

/// The placement rules of the responder world (which kind may sit under which).
enum Placement {
    /// Whether a `child` kind may sit under a `parent` kind at all (nil parent: detached).
    static func kindError(child: NodeKind, parent: NodeKind?) -> CoreError.KindRule? {
        guard let parent else {
            switch child {
            case .application, .appDelegate: return .cannotBeDetached(child)
            default: return nil
            }
        }
        switch (parent, child) {
        case (_, .application): return .onlyOneApplication
        case (.application, .window), (.application, .appDelegate): return nil
        case (.application, _): return .applicationHolds
        case (.appDelegate, _): return .appDelegateHoldsNothing
        case (.window, .viewController): return nil
        case (.window, let c) where c.isSubviewKind: return nil
        case (.window, _): return .windowHolds
        case (.viewController, let c) where c.isSubviewKind: return nil
        case (.viewController, _): return .viewControllerHolds
        case (let p, .viewController) where p.isSubviewKind: return nil
        case (let p, let c) where p.isSubviewKind && c.isSubviewKind: return nil
        default: return .cannotHold(parent: parent, child: child)
        }
    }

    /// Rules that depend on siblings and fields, checked once a batch is complete.
    static func invariantError(_ id: String, in world: World) -> CoreError? {
        guard let node = world[id] else { return nil }
        func broken(_ rule: CoreError.InvariantRule) -> CoreError { .brokenInvariant(id, rule: rule) }
        let parent = node.parent.flatMap { world[$0] }
        switch node.kind {
        case .application:
            if world.root.children.filter({ world[$0]?.kind == .appDelegate }).count > 1 {
                return broken(.severalAppDelegates)
            }
        case .window:
            let roots = node.children.filter { world[$0]?.kind == .viewController && world[$0]?.presentedBy == nil }
            if roots.count > 1 { return broken(.severalRootViewControllers(window: id, roots: roots)) }
        case .viewController:
            if node.children.count != 1 {
                return broken(.viewControllerChildren(id, count: node.children.count))
            }
            if let presenter = node.presentedBy {
                guard parent?.kind == .window else {
                    return broken(.presentedOutsideWindow(id))
                }
                guard presenter != id, world[presenter]?.kind == .viewController else {
                    return broken(.presenterNotViewController)
                }
            }
        default:
            break
        }
        if let p = parent, p.kind == .viewController, p.children.count > 1 {
            return broken(.viewControllerSibling(p.id))
        }
        return nil
    }
}
