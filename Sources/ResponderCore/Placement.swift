import ResponderProtocol

/// The placement rules of the responder world (which kind may sit under which).
enum Placement {
    /// Whether a `child` kind may sit under a `parent` kind at all (nil parent: detached).
    static func kindError(child: NodeKind, parent: NodeKind?) -> String? {
        guard let parent else {
            switch child {
            case .application, .appDelegate: return "a \(child.rawValue) cannot be detached"
            default: return nil
            }
        }
        switch (parent, child) {
        case (_, .application): return "there is exactly one application, the root"
        case (.application, .window), (.application, .appDelegate): return nil
        case (.application, _): return "the application holds only windows and one appDelegate"
        case (.appDelegate, _): return "an appDelegate has no children"
        case (.window, .viewController): return nil
        case (.window, let c) where c.isSubviewKind: return nil
        case (.window, _): return "a window holds a root viewController, presented viewControllers and views"
        case (.viewController, let c) where c.isSubviewKind: return nil
        case (.viewController, _): return "a viewController holds exactly its root view"
        case (let p, .viewController) where p.isSubviewKind: return nil
        case (let p, let c) where p.isSubviewKind && c.isSubviewKind: return nil
        default: return "a \(parent.rawValue) cannot hold a \(child.rawValue)"
        }
    }

    /// Rules that depend on siblings and fields, checked once a batch is complete.
    static func invariantError(_ id: String, in world: World) -> RPCError? {
        guard let node = world[id] else { return nil }
        func placement(_ message: String) -> RPCError {
            RPCError(.invalidPlacement, message, [("id", .string(id))])
        }
        let parent = node.parent.flatMap { world[$0] }
        switch node.kind {
        case .application:
            if world.root.children.filter({ world[$0]?.kind == .appDelegate }).count > 1 {
                return placement("the application has more than one appDelegate")
            }
        case .window:
            let roots = node.children.filter { world[$0]?.kind == .viewController && world[$0]?.presentedBy == nil }
            if roots.count > 1 { return placement("window \"\(id)\" has more than one root viewController (\(roots.joined(separator: ", ")))") }
        case .viewController:
            if node.children.count != 1 {
                return placement("viewController \"\(id)\" must hold exactly its root view (it holds \(node.children.count))")
            }
            if let presenter = node.presentedBy {
                guard parent?.kind == .window else {
                    return placement("viewController \"\(id)\" is presented (presentedBy) but does not sit under a window")
                }
                guard presenter != id, world[presenter]?.kind == .viewController else {
                    return RPCError(.invalidNode, "presentedBy of \"\(id)\" must name another viewController", [("id", .string(id)), ("field", "presentedBy")])
                }
            }
        default:
            break
        }
        if let p = parent, p.kind == .viewController, p.children.count > 1 {
            return placement("viewController \"\(p.id)\" must hold exactly its root view")
        }
        return nil
    }
}
