import ResponderProtocol

/// K9: a presented controller's view is in front of its presenter's whatever the tree order, and a
/// `fullScreen` presentation takes the presenter's views out of the window while it lasts.
extension World {
    /// Whether `vc` presents, full screen, a controller that sits in an attached window.
    func isCoveredController(_ vc: String) -> Bool {
        guard let list = presented[vc] else { return false }
        return list.contains { p in
            guard let node = nodes[p], node.presentedBy == vc, node.spec.presentationStyle == .fullScreen,
                let window = node.parent, nodes[window]?.kind == .window, nodes[window]?.parent == World.rootID
            else { return false }
            return true
        }
    }

    /// Whether view `id` is the root view of a controller a full-screen presentation covers (hit-testing skips it).
    func presentedOver(_ id: String) -> Bool {
        guard !presented.isEmpty, let parent = read(id, { $0.pointee.parent }) ?? nil,
            read(parent, { $0.pointee.spec.kind }) == .viewController
        else { return false }
        return isCoveredController(parent)
    }

    /// K9: a window's subviews back to front, with presented controllers' views moved in front of the others,
    /// deeper presentations in front of shallower (stable otherwise). Unchanged when nothing is presented.
    func presentationOrder(_ subviews: [String]) -> [String] {
        guard !presented.isEmpty else { return subviews }
        let depths = subviews.map { presentationDepth(of: $0) }
        guard depths.contains(where: { $0 > 0 }) else { return subviews }
        return zip(subviews, depths).enumerated().sorted { a, b in
            a.element.1 != b.element.1 ? a.element.1 < b.element.1 : a.offset < b.offset
        }.map(\.element.0)
    }

    /// How many presentations lie between a root view's controller and an unpresented one.
    private func presentationDepth(of view: String) -> Int {
        guard let vc = nodes[view]?.parent, nodes[vc]?.kind == .viewController else { return 0 }
        var depth = 0
        var seen: Set<String> = []
        var current = nodes[vc]?.presentedBy
        while let c = current, seen.insert(c).inserted, nodes[c]?.kind == .viewController {
            depth += 1
            current = nodes[c]?.presentedBy
        }
        return depth
    }
}

extension Transaction {
    /// Brings the presentation index up to date with the nodes this batch touched (K9).
    mutating func indexPresentations() {
        for (id, old) in journal {
            if let presenter = old?.presentedBy { world.presented[presenter]?.removeAll { $0 == id } }
            if let presenter = world.nodes[id]?.presentedBy, world.presented[presenter]?.contains(id) != true {
                world.presented[presenter, default: []].append(id)
            }
        }
        for (presenter, list) in world.presented where list.isEmpty { world.presented[presenter] = nil }
    }
}
