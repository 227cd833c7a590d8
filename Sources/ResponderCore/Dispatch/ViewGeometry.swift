import ResponderProtocol

extension NodeSpec {
    /// H3: the view's bounds, whose origin is its bounds origin (a scroll offset shifts the tested rect).
    var bounds: Rect { Rect(boundsOrigin.x, boundsOrigin.y, frame.width, frame.height) }

    /// H4: converts `p` from the superview's bounds coordinates into this view's: q = p − frame.origin +
    /// bounds.origin; with a transform, its inverse is applied about the view's center. Nil when the
    /// transform cannot be inverted (such a view can be hit nowhere).
    func convertFromSuperview(_ p: Point) -> Point? { SuperviewConversion(self).apply(p) }
}

/// What H4 needs of a view to convert a point from its superview: read once, applied later (a path is
/// read going up and converted coming down).
struct SuperviewConversion {
    let frame: Rect
    let boundsOrigin: Point
    let transform: AffineTransform?

    init(_ spec: borrowing NodeSpec) {
        frame = spec.frame
        boundsOrigin = spec.boundsOrigin
        transform = spec.transform
    }

    /// Read through a pointer to the node (`World.read`): passing its spec to the initializer above copied it.
    init(_ node: UnsafePointer<Node>) {
        frame = node.pointee.spec.frame
        boundsOrigin = node.pointee.spec.boundsOrigin
        transform = node.pointee.spec.transform
    }

    func apply(_ p: Point) -> Point? {
        guard let t = transform, t != .identity else {
            return Point(p.x - frame.x + boundsOrigin.x, p.y - frame.y + boundsOrigin.y)
        }
        guard let inverse = t.inverted else { return nil }
        let halfW = frame.width / 2, halfH = frame.height / 2
        let centered = inverse.apply(Point(p.x - (frame.x + halfW), p.y - (frame.y + halfH)))
        return Point(centered.x + halfW + boundsOrigin.x, centered.y + halfH + boundsOrigin.y)
    }

    /// H4 the other way: a point in the view's bounds coordinates, in its superview's (for a window, the
    /// screen's). Where a view lies on the screen, which `whyNot` samples.
    func unapply(_ q: Point) -> Point {
        guard let t = transform, t != .identity else {
            return Point(q.x + frame.x - boundsOrigin.x, q.y + frame.y - boundsOrigin.y)
        }
        let halfW = frame.width / 2, halfH = frame.height / 2
        let turned = t.apply(Point(q.x - halfW - boundsOrigin.x, q.y - halfH - boundsOrigin.y))
        return Point(turned.x + frame.x + halfW, turned.y + frame.y + halfH)
    }
}

extension Node {
    var bounds: Rect { spec.bounds }
    func convertFromSuperview(_ p: Point) -> Point? { spec.convertFromSuperview(p) }
}

extension World {
    /// The views hit-testing asks inside `id`, back to front: its view children, and for a child view
    /// controller that controller's root view, at the controller's position in the children order.
    func hitTestSubviews(of id: String) -> [String] {
        guard let (kind, children) = read(id, { ($0.pointee.spec.kind, $0.pointee.children) }) else { return [] }
        var out: [String] = []
        out.reserveCapacity(children.count)
        for child in children {
            guard let (kind, first) = read(child, { ($0.pointee.spec.kind, $0.pointee.children.first) }) else {
                continue
            }
            if kind.isSubviewKind {
                out.append(child)
            } else if kind == .viewController, let root = first,
                read(root, { $0.pointee.spec.kind.isSubviewKind }) == true
            {
                out.append(root)
            }
        }
        return kind == .window ? presentationOrder(out) : out
    }

    /// H4 applied down a path: converts a point in window `window`'s coordinates into view `id`'s, walking
    /// up the superviews (iteratively) to collect the path. Nil when `id` is not in that window or a
    /// transform on the way is singular.
    func convert(_ p: Point, fromWindow window: String, to id: String) -> Point? {
        // Up by slot: each node on the way is read once where it is stored (its conversion, kind and parent's
        // slot), and only the two ids given are looked up — a tap converts its point four times.
        guard let start = nodes.slot(of: id), let windowSlot = nodes.slot(of: window) else { return nil }
        return convert(p, fromWindowSlot: windowSlot, toSlot: start)
    }

    /// H1/H4: a screen point in the coordinates of view `id` of window `window`: `convert(screen:toWindow:)`
    /// then `convert(_:fromWindow:to:)`, with each id looked up once.
    func convert(screen p: Point, inWindow window: String, to id: String) -> Point? {
        guard let windowSlot = nodes.slot(of: window), let start = nodes.slot(of: id),
            let wp = nodes.read(slot: windowSlot, { SuperviewConversion($0).apply(p) })
        else { return nil }
        return convert(wp, fromWindowSlot: windowSlot, toSlot: start)
    }

    /// `convert(_:fromWindow:to:)` between the nodes in two slots.
    func convert(_ p: Point, fromWindowSlot windowSlot: Int, toSlot start: Int) -> Point? {
        struct Up {
            let kind: NodeKind
            let parent: Int32
            let conversion: SuperviewConversion
        }
        func up(_ slot: Int32) -> Up? {
            guard slot >= 0 else { return nil }
            return nodes.read(slot: Int(slot)) {
                Up(
                    kind: $0.pointee.spec.kind, parent: nodes.parentSlot(ofSlot: Int(slot)),
                    conversion: SuperviewConversion($0))
            }
        }
        // The usual depth on the stack, deeper levels in an array: an array for every conversion would be an
        // allocation and a free each time (a tap converts four times). Eight levels, as room for sixteen (over
        // 1 KB) is allocated on the heap too. The conversions are plain numbers: the room needs no cleaning up.
        let onStack = 8
        return withUnsafeTemporaryAllocation(of: SuperviewConversion.self, capacity: onStack) { room -> Point? in
            var deeper: [SuperviewConversion] = []
            var depth = 0
            var current = Int32(truncatingIfNeeded: start)
            guard var node = up(current) else { return nil }
            while current != Int32(truncatingIfNeeded: windowSlot) {
                // The superview: a view's parent view, or — for a controller's root view — the controller's parent
                // view or window.
                guard node.kind.isSubviewKind, let above = up(node.parent) else { return nil }
                if depth < onStack {
                    (room.baseAddress! + depth).initialize(to: node.conversion)
                } else {
                    deeper.append(node.conversion)
                }
                depth += 1
                if above.kind.isView {
                    (current, node) = (node.parent, above)
                } else if above.kind == .viewController, let top = up(above.parent), top.kind.isView {
                    (current, node) = (above.parent, top)
                } else {
                    return nil
                }
            }
            var q = p
            for level in stride(from: depth - 1, through: 0, by: -1) {
                guard let next = (level < onStack ? room[level] : deeper[level - onStack]).apply(q) else { return nil }
                q = next
            }
            return q
        }
    }

    /// H1/H4: a screen point in window `window`'s coordinates (the window's frame and transform).
    func convert(screen p: Point, toWindow window: String) -> Point? {
        read(window) { SuperviewConversion($0).apply(p) } ?? nil
    }
}
