import ResponderProtocol

/// `whyNot`'s touch question: whether a touch is the view's own as its hit-test view. Every answer comes from
/// the hit test itself (H1–H7, K1, K9, K10) run at the point or at samples over the view, and every cause from
/// that test's visits or from the checks it makes (`HitTester.exclusion`), so the answer cannot disagree with
/// `hitTest`.
struct TouchWhy {
    let world: World
    let profile: Profile
    let view: String
    /// The views hit-testing passes through to reach the view, its window first.
    let path: [String]

    /// At most this many samples a side: the grid over the view is bounded work whatever its size.
    static let maxSide = 32
    /// Samples times views a grid may cost; a large world gets a coarser grid, so that its answer stays fast.
    static let budget = 1_000_000

    /// One reason the hit test gave for not answering the view, with the depth of the path where it arose.
    struct Miss {
        var reason: WhyNotReason
        var rule: Rule
        var culprit: String?
        var depth: Int
        var to: String?
        var otherWindow = false
    }

    struct Answer {
        var ok: Bool
        var causes: [WhyNotCause]
        var hittable: Hittable
        /// When `ok` anywhere: why the rest of the view is not the tap's (each with its share), for when what
        /// follows the hit test turns the answer.
        var elsewhere: [WhyNotCause] = []
        /// The view's centre on the screen (nil when a transform on the way cannot be undone).
        var centre: Point? = nil
    }

    func answer(at point: Point?, area: Bool = false) -> Answer {
        let conversions = path.reversed().compactMap { id in world.read(id) { SuperviewConversion($0) } }
        let bounds = world.read(view) { $0.pointee.spec.bounds } ?? Rect(0, 0, 0, 0)
        let sampled = sample(bounds: bounds, conversions: conversions, area: area)
        let mid = Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2)
        let centre: Point? =
            conversions.count == path.count ? conversions.reduce(mid) { $1.unapply($0) } : nil
        var found = staticMisses().map { (miss: $0, share: 1.0) }
        if bounds.isEmpty {
            found.append((Miss(reason: .zeroSize, rule: .h3, culprit: view, depth: path.count - 1), 1.0))
        }
        if let point {
            // The touch at that point decides; the checks that fail everywhere are the other causes.
            let result = HitTester.answer(world: world, profile: profile, screen: point)
            guard let miss = explain(result) else {
                return Answer(ok: true, causes: [], hittable: sampled.hittable, centre: centre)
            }
            let rest = found.filter { $0.miss.reason != miss.reason || $0.miss.culprit != miss.culprit }
            let causes = [cause(miss, share: nil)] + rest.map { cause($0.miss, share: $0.share) }
            return Answer(ok: false, causes: causes, hittable: sampled.hittable, centre: centre)
        }
        for tally in sampled.misses where !found.contains(where: { same($0.miss, tally.miss) }) {
            found.append((tally.miss, sampled.inside > 0 ? Double(tally.count) / Double(sampled.inside) : 1))
        }
        // The decisive cause: the one over most of the view, then the one nearest the window (the hit test meets
        // it first).
        let ordered = found.enumerated().sorted { a, b in
            if a.element.share != b.element.share { return a.element.share > b.element.share }
            if a.element.miss.depth != b.element.miss.depth { return a.element.miss.depth < b.element.miss.depth }
            return a.offset < b.offset
        }
        let causes = ordered.map { cause($0.element.miss, share: $0.element.share) }
        guard sampled.hittable.point == nil else {
            return Answer(ok: true, causes: [], hittable: sampled.hittable, elsewhere: causes, centre: centre)
        }
        return Answer(ok: false, causes: causes, hittable: sampled.hittable, centre: centre)
    }

    private func same(_ a: Miss, _ b: Miss) -> Bool { a.reason == b.reason && a.culprit == b.culprit }

    // MARK: - The checks that fail at every point

    /// The views between the window and the view (both included) whose own checks exclude them whatever the
    /// point: the hit test's checks (H2.1, H6 never, H7, K1, K9, K10) and a transform it cannot invert (H4).
    func staticMisses() -> [Miss] {
        var misses: [Miss] = []
        for (depth, id) in path.enumerated() {
            let excluded = world.read(id) { node -> (reason: HitReason, rule: Rule)? in
                if let e = HitTester.exclusion(node, id, world: world, profile: profile) { return e }
                if let t = node.pointee.spec.transform, !t.isInvertible { return (.singularTransform, .h4) }
                return nil
            }
            if let (reason, rule) = excluded ?? nil, let mapped = WhyNotReason(rawValue: reason.rawValue) {
                misses.append(Miss(reason: mapped, rule: rule, culprit: id, depth: depth))
            }
        }
        return misses
    }

    // MARK: - One touch

    /// Why the hit test `result` did not answer the view, read from its visits; nil when it did. The views of
    /// the path are visited in path order (H2 asks a superview before its subviews), so one pass finds them.
    func explain(_ result: HitTestAnswer) -> Miss? {
        if result.view == view { return nil }
        var visitOf: [Int] = []
        visitOf.reserveCapacity(path.count)
        for (i, v) in result.visits.enumerated()
        where visitOf.count < path.count && result.id(v.slot) == path[visitOf.count] {
            visitOf.append(i)
        }
        for depth in path.indices {
            if depth >= visitOf.count, let hit = result.view, let dimming = world.dimming(named: hit) {
                // K17, K18: the dimming view in front of it answered for the whole window.
                return Miss(reason: .dimmed, rule: dimming.rule, culprit: hit, depth: depth, to: dimming.controller)
            }
            guard depth < visitOf.count else {
                // Never asked: a view in front answered first (H2), or a window in front did (H1).
                let otherWindow = result.window != path[0]
                return Miss(
                    reason: .covered, rule: otherWindow ? .h1 : .h2, culprit: result.view, depth: depth,
                    otherWindow: otherWindow)
            }
            let visit = result.hitVisit(visitOf[depth])
            let id = path[depth]
            if visit.reason == .redirect {
                return Miss(reason: .redirect, rule: .h6, culprit: id, depth: depth, to: visit.to)
            }
            guard visit.result == .hit else {
                let reason = visit.reason ?? .outsideBounds
                if reason == .outsideBounds, depth < path.count - 1 {
                    // H5: the point is outside an ancestor, whose point(inside:) fails before the view is asked.
                    return Miss(
                        reason: .outsideAncestor, rule: visit.rule == .h6 ? .h6 : .h5, culprit: id, depth: depth)
                }
                return Miss(
                    reason: WhyNotReason(rawValue: reason.rawValue) ?? .outsideBounds, rule: visit.rule, culprit: id,
                    depth: depth)
            }
        }
        // The view was hit but answered a view inside it (H2: the front-most subview that answers wins).
        return Miss(reason: .takenBySubview, rule: .h2, culprit: result.view, depth: path.count - 1)
    }

    // MARK: - Samples over the view

    struct Tally {
        var miss: Miss
        var count: Int
    }

    struct Sampled {
        var hittable: Hittable
        /// Samples inside the view's bounds.
        var inside: Int
        /// Why the other samples inside were not the view's, in the order first met.
        var misses: [Tally]
    }

    /// A grid of screen points over the box around the view's bounds on the screen, each that lies in the view
    /// hit-tested: the share that answers the view, the one nearest the view's centre, and why the rest do not.
    /// Points are multiples of 1/16, exact in binary and in decimal, so the point returned hit-tests the same
    /// when a client sends it back.
    func sample(bounds: Rect, conversions: [SuperviewConversion], area: Bool) -> Sampled {
        var sampled = Sampled(hittable: Hittable(fraction: 0, point: nil), inside: 0, misses: [])
        guard !bounds.isEmpty, conversions.count == path.count else { return sampled }
        func toScreen(_ p: Point) -> Point { conversions.reduce(p) { $1.unapply($0) } }
        func toView(_ p: Point) -> Point? {
            var q = p
            for c in conversions.reversed() {
                guard let next = c.apply(q) else { return nil }
                q = next
            }
            return q
        }
        let corners = [
            Point(bounds.x, bounds.y), Point(bounds.x + bounds.width, bounds.y),
            Point(bounds.x, bounds.y + bounds.height), Point(bounds.x + bounds.width, bounds.y + bounds.height)
        ].map(toScreen)
        let minX = corners.map(\.x).min()!, maxX = corners.map(\.x).max()!
        let minY = corners.map(\.y).min()!, maxY = corners.map(\.y).max()!
        let centre = toScreen(Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2))
        let side = max(4, min(Self.maxSide, Int((Double(Self.budget) / Double(max(world.count, 1))).squareRoot())))
        func sixteenth(_ v: Double) -> Double { (v * 16).rounded() / 16 }
        var points: [Point] = []
        points.reserveCapacity(side * side)
        for j in 0..<side {
            for i in 0..<side {
                points.append(
                    Point(
                        sixteenth(minX + (Double(i) + 0.5) * (maxX - minX) / Double(side)),
                        sixteenth(minY + (Double(j) + 0.5) * (maxY - minY) / Double(side))))
            }
        }
        var hits = 0
        var best: (point: Point, distance: Double)?
        var hitCells = Array(repeating: false, count: area ? side * side : 0)
        @discardableResult
        func test(_ p: Point) -> Bool {
            guard let local = toView(p), bounds.contains(local) else { return false }
            sampled.inside += 1
            let result = HitTester.answer(world: world, profile: profile, screen: p)
            guard let miss = explain(result) else {
                hits += 1
                let d = (p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y)
                if best == nil || d < best!.distance { best = (p, d) }
                return true
            }
            if let i = sampled.misses.firstIndex(where: { same($0.miss, miss) }) {
                sampled.misses[i].count += 1
            } else {
                sampled.misses.append(Tally(miss: miss, count: 1))
            }
            return false
        }
        for (k, p) in points.enumerated() where test(p) && area { hitCells[k] = true }
        var cells: [[Double]] = []
        // A view too thin for the grid is asked at its centre; its area is then its box.
        if sampled.inside == 0, test(Point(sixteenth(centre.x), sixteenth(centre.y))) {
            cells = [[minX, minY, maxX - minX, maxY - minY]]
        } else if area {
            cells = Self.rectangles(
                hitCells, side: side, origin: Point(minX, minY),
                cell: Point((maxX - minX) / Double(side), (maxY - minY) / Double(side)))
        }
        if sampled.inside > 0 {
            sampled.hittable = Hittable(
                fraction: Double(hits) / Double(sampled.inside), point: best?.point, area: area ? cells : nil)
        } else if area {
            sampled.hittable.area = []
        }
        return sampled
    }

    /// The grid's hit cells as rectangles `[x, y, width, height]`: each row's runs of hit cells, and a run
    /// grown downwards over the rows below that have the same run.
    static func rectangles(_ hit: [Bool], side: Int, origin: Point, cell: Point) -> [[Double]] {
        var open: [Int: [Double]] = [:]  // run (first column × side + last column) → its rectangle so far
        var out: [[Double]] = []
        for j in 0..<side {
            var runs: [Int: [Double]] = [:]
            var i = 0
            while i < side {
                guard hit[j * side + i] else {
                    i += 1
                    continue
                }
                let first = i
                while i < side && hit[j * side + i] { i += 1 }
                let key = first * side + i - 1
                if var r = open[key] {
                    r[3] += cell.y
                    runs[key] = r
                } else {
                    runs[key] = [
                        origin.x + Double(first) * cell.x, origin.y + Double(j) * cell.y, Double(i - first) * cell.x,
                        cell.y
                    ]
                }
            }
            for (key, r) in open where runs[key] == nil { out.append(r) }
            open = runs
        }
        out += open.values
        return out.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) }
    }

    // MARK: - Sentences

    func cause(_ miss: Miss, share: Double?) -> WhyNotCause {
        WhyNotCause(rule: miss.rule, reason: miss.reason, culprit: miss.culprit, detail: detail(miss, share: share))
    }

    func detail(_ miss: Miss, share: Double?) -> String {
        let c = miss.culprit ?? "nothing"
        let it = miss.culprit == view ? "\(view)" : "\(c), an ancestor of \(view),"
        let whereText: String
        if let share {
            whereText = share >= 1 ? "everywhere on \(view)" : "over \(Int((share * 100).rounded()))% of \(view)"
        } else {
            whereText = "at that point"
        }
        switch miss.reason {
        case .hidden: return "\(it) is hidden, so hit-testing skips it and everything inside it."
        case .alpha: return "\(it) has an alpha below 0.01, so hit-testing skips it and everything inside it."
        case .interactionDisabled:
            let why = miss.rule == .k1 ? " (its class's default)" : ""
            return "\(it) has user interaction disabled\(why), so hit-testing skips it and everything inside it."
        case .disabledControl: return "\(it) is a disabled control, which ignores touches with everything inside it."
        case .animating:
            return "\(it) is animating without allowUserInteraction, so hit-testing skips it and its subviews."
        case .presentedOver:
            return
                "\(it) is the root view of a controller a full-screen presentation covers, so it is out of the window."
        case .dimmed:
            let vc = miss.to ?? "a presented controller"
            if miss.rule == .k18 {
                return "\(c), the dimming view around \(vc)'s popover, takes the touch \(whereText): nothing behind "
                    + "it gets it, and a tap there dismisses the popover (passthroughViews lets a view through)."
            }
            return "\(c), the dimming view behind \(vc)'s sheet, covers the window and takes the touch \(whereText): "
                + "nothing behind it gets it while the sheet rests at a dimmed detent (largestUndimmedDetent)."
        case .never: return "\(it) declares a hitTest override that answers nil (mode never) for its whole subtree."
        case .singularTransform: return "\(it) has a transform that cannot be inverted, so no point converts into it."
        case .zeroSize: return "\(view) has an empty bounds rectangle, which contains no point."
        case .outsideBounds: return "The point lies outside \(view)'s hit area."
        case .outsideAncestor:
            return "\(view) lies outside the bounds of its ancestor \(c) \(whereText); \(c)'s point(inside:) fails "
                + "there first, so \(view) is never asked (clipsToBounds plays no part)."
        case .covered:
            guard miss.culprit != nil else { return "No view answers the hit test \(whereText)." }
            let front = miss.otherWindow ? "in a window in front of \(view)'s" : "in front of \(view)"
            return "\(c), \(front), takes the touch \(whereText)."
        case .takenBySubview:
            return "\(c), inside \(view), is the hit-test view \(whereText); the touch reaches \(view) only up the "
                + "responder chain."
        case .redirect: return "\(it) redirects the touch to \(miss.to ?? "another view") (a hitTest override)."
        case .passThrough: return "\(it) passes touches on itself through to the views behind (mode passThroughSelf)."
        default: return "\(view) does not get the touch \(whereText)."
        }
    }
}

extension World {
    /// H2: the views hit-testing passes through to reach view `id`, its window first (a controller's root view
    /// sits in the controller's parent); nil when no attached window is reached that way.
    func hitTestPath(to id: String) -> [String]? {
        var path = [id]
        var current = id
        while true {
            guard let (kind, parent) = read(current, { ($0.pointee.spec.kind, $0.pointee.parent) }) else { return nil }
            if kind == .window { return parent == World.rootID ? path.reversed() : nil }
            guard kind.isSubviewKind, let parent,
                let (parentKind, first, grandparent) = read(
                    parent, { ($0.pointee.spec.kind, $0.pointee.children.first, $0.pointee.parent) })
            else { return nil }
            var superview = parent
            if parentKind == .viewController {
                // Only a controller's root view, its first child, is asked in the controller's place.
                guard first == current, let grandparent, read(grandparent, { $0.pointee.spec.kind.isView }) == true
                else { return nil }
                superview = grandparent
            } else if !parentKind.isView {
                return nil
            }
            path.append(superview)
            current = superview
        }
    }
}
