import ResponderProtocol

/// Draws an overlay on the world: each view asked by the hit test outlined (the hit path green, the view hit
/// filled, the views passed over red with their reason), the touch point, and the responder chain as
/// numbered arrows up to the application. Every outline carries `data-node-id`, `data-hit` (`hit`/`miss`),
/// `data-reason` when the view was passed over, `data-rule` and `data-order` (the order it was asked). Under
/// android the same marks draw Android's search (AndroidOverlay): the order views were offered the DOWN, the
/// consumer filled, and `data-intercepted` on a group that intercepted it.
public struct OverlaySVG {
    public let scene: Scene
    public let crop: Rect
    public let overlay: Overlay
    /// For the windows' titles, where a window's chain marker goes.
    public var firstResponders: [String: String]

    public init(scene: Scene, crop: Rect, overlay: Overlay, firstResponders: [String: String] = [:]) {
        self.scene = scene
        self.crop = crop
        self.overlay = overlay
        self.firstResponders = firstResponders
    }

    public func render() -> String {
        var out = "<g class=\"overlay\">"
        var tags = Occupancy()
        if let why = overlay.why { out += WhySVG(scene: scene, why: why).render() }
        if let hit = overlay.hit { hitPath(hit, &tags, &out) }
        if !overlay.chain.isEmpty { chain(&tags, &out) }
        return out + "</g>"
    }

    /// The scene node whose box a visit is drawn over: its own, or for a sheet's or popover's dimming view
    /// (`<controller>.dimming`, K17/K18), which is no node of the tree but covers its window, the window's.
    private func box(of id: String, _ hit: HitPath) -> Int? {
        if let i = scene.index[id] { return i }
        guard id.hasSuffix(".dimming"), let window = hit.window else { return nil }
        return scene.index[window]
    }

    private func hitPath(_ hit: HitPath, _ tags: inout Occupancy, _ out: inout String) {
        // Misses first, then the path over them, the view hit last (on top).
        let order = hit.visited.enumerated().sorted { rank($0.element, hit) < rank($1.element, hit) }
        for (k, v) in order {
            guard let i = box(of: v.id, hit), scene.nodes[i].isView else { continue }
            let n = scene.nodes[i]
            let isHitView = v.id == hit.view && v.result == "hit"
            var cls = "h " + (v.result == "hit" ? "path" : v.result == "skipped" ? "skip" : "miss")
            if isHitView { cls += " target" }
            if v.intercepted { cls += " intercepted" }
            out +=
                "<rect class=\"\(cls)\" data-node-id=\"\(SVGText.escape(v.id))\" data-hit=\"\(v.dataHit)\" data-result=\"\(SVGText.escape(v.result))\""
            if let reason = v.reason { out += " data-reason=\"\(SVGText.escape(reason))\"" }
            if v.intercepted { out += " data-intercepted=\"true\"" }
            out +=
                " data-rule=\"\(SVGText.escape(v.rule))\" data-order=\"\(k + 1)\" \(n.svgGeometry)><title>\(k + 1). \(SVGText.escape(scene.label(v.id))): \(SVGText.escape(v.result))"
            if let reason = v.reason {
                out += " (\(SVGText.escape(reason)), \(SVGText.escape(v.rule)))"
            } else {
                out += " (\(SVGText.escape(v.rule)))"
            }
            out += "</title></rect>"
        }
        // A tag per view asked, at its bottom right: its number, and why it was passed over. In a crowd (a large
        // world asks dozens of siblings) the plain outside-bounds misses keep only their outline.
        let crowded = hit.visited.filter { $0.reason == "outside-bounds" }.count > Self.tagLimit
        for (k, v) in hit.visited.enumerated() {
            guard let i = box(of: v.id, hit), scene.nodes[i].isView else { continue }
            if crowded && v.reason == "outside-bounds" { continue }
            let b = scene.nodes[i].box
            let text: String
            if v.result == "hit" {
                let word = overlay.isAndroid ? "consumed" : "hit"
                let name = v.id == hit.view ? "\(word): \(v.id)" : v.id
                text = "\(k + 1) \(name)" + (v.intercepted ? " (intercepted)" : "")
            } else {
                text = "\(k + 1) \(v.id): \(v.reason ?? v.result)"
            }
            let w = SVGText.width(text, size: 10.5) + 12
            // Bottom right, inside: clear of the label (top left) and the chain's marker (top right).
            guard let (x, y) = tags.place(max(b.x + 3, b.maxX - w - 3), b.maxY - 19, w, 16, dx: 0, dy: -17, tries: 6)
            else { continue }
            let kind =
                v.result == "hit" ? (v.id == hit.view ? "target" : "path") : v.result == "skipped" ? "skip" : "miss"
            out +=
                "<g class=\"tag \(kind)\" data-node-id=\"\(SVGText.escape(v.id))\"><rect x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y))\" width=\"\(SVGText.number(w))\" height=\"16\" rx=\"4\"/>"
            out +=
                "<text x=\"\(SVGText.number(x + 6))\" y=\"\(SVGText.number(y + 11.5))\">\(SVGText.escape(text))</text></g>"
        }
        // The touch point: in the window hit, else in every window whose screen box holds it.
        let windows =
            hit.window.map { [$0] }
            ?? scene.windows.filter { $0.screen.contains(hit.point) }.map { scene.nodes[$0.node].id }
        for w in windows {
            guard let p = scene.picturePoint(screen: hit.point, window: w) else { continue }
            let x = SVGText.number(p.x), y = SVGText.number(p.y)
            out +=
                "<g class=\"touch\" data-point=\"\(SVGText.number(hit.point.x)),\(SVGText.number(hit.point.y))\"><title>touch at \(SVGText.point(hit.point.x, hit.point.y))</title>"
            out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"11\"/><circle class=\"dot\" cx=\"\(x)\" cy=\"\(y)\" r=\"3\"/>"
            out +=
                "<path d=\"M\(SVGText.number(p.x - 17)) \(y)h8M\(SVGText.number(p.x + 9)) \(y)h8M\(x) \(SVGText.number(p.y - 17))v8M\(x) \(SVGText.number(p.y + 9))v8\"/></g>"
        }
    }

    /// More outside-bounds misses than this and they are not tagged (nor listed one by one in the legend).
    static let tagLimit = 12

    private func rank(_ v: Visit, _ hit: HitPath) -> Int {
        if v.result != "hit" { return 0 }
        return v.id == hit.view ? 2 : 1
    }

    /// The chain: a numbered marker on each responder (views at their top right; a view controller beside
    /// its root view; a window on its title; the application and its delegate on their pills) and an arrow
    /// from each to the next.
    private func chain(_ tags: inout Occupancy, _ out: inout String) {
        let pills = WorldSVG.pillAnchors(scene: scene, crop: crop)
        var points: [(String, Point)] = []
        for id in overlay.chain {
            guard let p = anchor(id, pills: pills, &tags) else { continue }
            points.append((id, p))
        }
        out += "<g class=\"chain\">"
        for k in points.indices.dropLast() {
            let (a, b) = (points[k].1, points[k + 1].1)
            let dx = b.x - a.x, dy = b.y - a.y
            let len = max((dx * dx + dy * dy).squareRoot(), 1)
            // Stop short of the marker, bend a little to the side so stacked arrows stay apart.
            let ex = b.x - dx / len * 12, ey = b.y - dy / len * 12
            let sx = a.x + dx / len * 11, sy = a.y + dy / len * 11
            let bend = min(40, len / 4)
            let cx = (sx + ex) / 2 - dy / len * bend, cy = (sy + ey) / 2 + dx / len * bend
            out +=
                "<path class=\"arrow\" data-from=\"\(SVGText.escape(points[k].0))\" data-to=\"\(SVGText.escape(points[k + 1].0))\" d=\"M\(SVGText.number(sx)) \(SVGText.number(sy))Q\(SVGText.number(cx)) \(SVGText.number(cy)) \(SVGText.number(ex)) \(SVGText.number(ey))\" marker-end=\"url(#arrowhead)\"/>"
        }
        for (k, (id, p)) in points.enumerated() {
            out +=
                "<g class=\"step\" data-node-id=\"\(SVGText.escape(id))\" data-chain=\"\(k + 1)\"><title>\(k + 1). \(SVGText.escape(scene.label(id)))</title>"
            out +=
                "<circle cx=\"\(SVGText.number(p.x))\" cy=\"\(SVGText.number(p.y))\" r=\"10\"/><text x=\"\(SVGText.number(p.x))\" y=\"\(SVGText.number(p.y + 4))\">\(k + 1)</text></g>"
        }
        out += "</g>"
    }

    private func anchor(_ id: String, pills: [String: Point], _ tags: inout Occupancy) -> Point? {
        if let p = pills[id] { return p }
        guard let i = scene.index[id] else { return nil }
        let n = scene.nodes[i]
        var start: Point
        if n.kind == "window", let panel = scene.panel(of: i), scene.windows[n.window!].node == i {
            let title = SVGText.width(WorldSVG.title(n, firstResponders: firstResponders), size: 13)
            start = Point(panel.origin.x + title * 1.1 + 20, panel.origin.y - 14)  // bold text runs wider
        } else if n.isView {
            start = Point(n.box.maxX - 14, n.box.y + 14)
        } else if let root = n.rootView {
            start = Point(scene.nodes[root].box.maxX - 14, scene.nodes[root].box.y + 14)
        } else {
            return nil
        }
        let spot = tags.place(start.x - 11, start.y - 11, 22, 22, dx: -26, dy: 0, tries: 12)
        return spot.map { Point($0.0 + 11, $0.1 + 11) } ?? start
    }
}
