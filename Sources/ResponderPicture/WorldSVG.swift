import ResponderProtocol

/// Draws the world: window panels side by side, every drawn view as its frame (transforms and bounds origins
/// applied, clipped where an ancestor clips) labelled with its id and its display name or class, the first
/// responders marked, and a count where views were left out. Every view's shape carries `data-node-id`.
public struct WorldSVG {
    public let scene: Scene
    public let selection: Selection
    /// Window id → its first responder (session.snapshot `firstResponders`).
    public var firstResponders: [String: String]
    /// A `<title>` (hover text) per view: for a picture opened on its own. The page shows its own.
    public var tooltips: Bool

    public init(scene: Scene, selection: Selection, firstResponders: [String: String] = [:], tooltips: Bool = true) {
        self.scene = scene
        self.selection = selection
        self.firstResponders = firstResponders
        self.tooltips = tooltips
    }

    /// `<g class="world">…</g>`, in picture coordinates.
    public func render() -> String {
        var out = "<g class=\"world\">"
        out.reserveCapacity(selection.drawnCount * 220 + 4096)
        var labels = Occupancy()
        let firstOf = Set(firstResponders.values)
        header(&out)
        for w in selection.panels { panel(scene.windows[w], &out) }
        out += "<defs>"
        let clippers = self.clippers
        for (i, n) in scene.nodes.enumerated() where n.isView && clippers.contains(i) {
            out += "<clipPath id=\"clip-\(i)\"><rect \(geometry(n))/></clipPath>"
        }
        out += "</defs>"
        var open: [Int] = []  // clip groups open, outermost first
        for (i, n) in scene.nodes.enumerated() where selection.isDrawn(i) {
            let needed = clipChain(i)
            var keep = 0
            while keep < open.count, keep < needed.count, open[keep] == needed[keep] { keep += 1 }
            for _ in keep..<open.count { out += "</g>" }
            open.removeLast(open.count - keep)
            for c in needed[keep...] {
                out += "<g clip-path=\"url(#clip-\(c))\">"
                open.append(c)
            }
            if let dimming = scene.dimmingBefore[i] { dim(dimming, &out) }
            view(i, n, firstResponder: firstOf.contains(n.id), &out)
            label(n, &labels, &out)
        }
        for _ in open { out += "</g>" }
        for (i, count) in selection.collapsed.sorted(by: { $0.key < $1.key }) {
            collapsedBadge(scene.nodes[i], count, &labels, &out)
        }
        return out + "</g>"
    }

    /// The views whose clip applies to something drawn (and the clippers of those).
    private var clippers: Set<Int> {
        var s = Set<Int>()
        for (i, n) in scene.nodes.enumerated() where selection.isDrawn(i) { if let c = n.clip { s.insert(c) } }
        // Nested clippers clip their clippers' content too.
        var queue = Array(s)
        while let c = queue.popLast() { if let up = scene.nodes[c].clip, s.insert(up).inserted { queue.append(up) } }
        return s
    }

    private func clipChain(_ i: Int) -> [Int] {
        var chain: [Int] = []
        var c = scene.nodes[i].clip
        while let x = c {
            chain.append(x)
            c = scene.nodes[x].clip
        }
        return chain.reversed()
    }

    func geometry(_ n: SceneNode) -> String { n.svgGeometry }

    private func header(_ out: inout String) {
        var x = selection.crop.x + Scene.margin
        for i in scene.topResponders {
            let n = scene.nodes[i]
            let text = "\(n.id) · \(n.name)"
            let w = SVGText.width(text, size: 12) + 20 + Self.markerRoom
            out +=
                "<g class=\"responder\" data-node-id=\"\(SVGText.escape(n.id))\"><rect class=\"pill\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(Scene.margin))\" width=\"\(SVGText.number(w))\" height=\"24\" rx=\"12\"/>"
            out +=
                "<text class=\"pt\" x=\"\(SVGText.number(x + 10))\" y=\"\(SVGText.number(Scene.margin + 16))\">\(SVGText.escape(text))</text></g>"
            x += w + 10
        }
    }

    /// Room at the right end of pills and titles for a chain marker.
    static let markerRoom = 24.0

    /// A window's title: id, class, key, first responder.
    static func title(_ n: SceneNode, firstResponders: [String: String]) -> String {
        var title = "\(n.id) · \(n.name)"
        if n.flags.contains("key") { title += " · key" }
        if let fr = firstResponders[n.id] { title += " · first responder: \(fr)" }
        return title
    }

    /// Where a top responder's pill is (for the chain's arrows).
    static func pillAnchors(scene: Scene, crop: Rect) -> [String: Point] {
        var anchors: [String: Point] = [:]
        var x = crop.x + Scene.margin
        for i in scene.topResponders {
            let n = scene.nodes[i]
            let w = SVGText.width("\(n.id) · \(n.name)", size: 12) + 20 + markerRoom
            anchors[n.id] = Point(x + w - markerRoom / 2 - 2, Scene.margin + 12)
            x += w + 10
        }
        return anchors
    }

    private func panel(_ p: WindowPanel, _ out: inout String) {
        let title = Self.title(scene.nodes[p.node], firstResponders: firstResponders)
        let x = p.origin.x, y = p.origin.y
        out +=
            "<text class=\"wt\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y - 9))\">\(SVGText.escape(title))</text>"
        out +=
            "<rect class=\"shadow\" x=\"\(SVGText.number(x + 3))\" y=\"\(SVGText.number(y + 4))\" width=\"\(SVGText.number(p.screen.width))\" height=\"\(SVGText.number(p.screen.height))\" rx=\"6\"/>"
    }

    /// K17, K18: the dimming view, a shade over its whole window behind the presented view.
    private func dim(_ d: SceneDimming, _ out: inout String) {
        out += "<rect class=\"dim\" data-dimming=\"\(SVGText.escape(d.id))\" \(geometry(scene.nodes[d.window]))"
        out += tooltips ? "><title>\(SVGText.escape(d.id)) · dimming view</title></rect>" : "/>"
    }

    private func view(_ i: Int, _ n: SceneNode, firstResponder: Bool, _ out: inout String) {
        var cls =
            "v "
            + (n.kind == "window" || n.kind == "view" || n.kind == "control" || n.kind == "textField"
                || n.kind == "textView" ? n.kind : "other")
        if n.invisible { cls += " hidden" }
        if firstResponder { cls += " fr" }
        // K17, K18: the sheet or popover in front of its dimming view is opaque, as UIKit draws it.
        if scene.dimmingBefore[i] != nil { cls += " presented" }
        // K14–K16: a selected or highlighted cell is tinted, as UIKit's selection background shows it.
        if n.flags.contains("selected") {
            cls += " selected"
        } else if n.flags.contains("highlighted") {
            cls += " highlighted"
        }
        out += "<rect class=\"\(cls)\" data-node-id=\"\(SVGText.escape(n.id))\" \(geometry(n))"
        if !n.invisible, n.alpha < 1 { out += " opacity=\"\(SVGText.number(max(n.alpha, 0.15)))\"" }
        guard tooltips else {
            out += "/>"
            return
        }
        var tip = "\(n.id) · \(n.name) · \(n.kind)"
        if !n.flags.isEmpty { tip += " · " + n.flags.joined(separator: ", ") }
        if firstResponder { tip += " · first responder" }
        out += "><title>\(SVGText.escape(tip))</title></rect>"
    }

    /// `id Name` (the display name, else the class) at the view's top left, when it fits inside and does not cover another label.
    private func label(_ n: SceneNode, _ labels: inout Occupancy, _ out: inout String) {
        guard !n.invisible, n.kind != "window" else { return }
        let b = n.box
        guard b.height >= 15, b.width >= 24 else { return }
        let full = SVGText.width(n.id + " " + n.name) + 8
        let short = SVGText.width(n.id) + 8
        let withClass = full <= b.width
        guard withClass || short <= b.width else { return }
        let w = withClass ? full : short
        let axis = n.toPicture.isAxisAligned
        guard
            let (x, y) = labels.place(
                b.x + 2, b.y + 1, w, 14, dx: 0, dy: 14, tries: axis ? max(1, min(4, Int(b.height / 14) - 1)) : 1)
        else { return }
        let cls = withClass ? "<tspan class=\"c\"> \(SVGText.escape(n.name))</tspan>" : ""
        if axis {
            out +=
                "<text class=\"l\" x=\"\(SVGText.number(x + 3))\" y=\"\(SVGText.number(y + 11))\">\(SVGText.escape(n.id))\(cls)</text>"
        } else {
            let m = n.toPicture
            out +=
                "<text class=\"l\" transform=\"matrix(\([m.a, m.b, m.c, m.d, m.tx, m.ty].map { SVGText.number($0) }.joined(separator: " ")))\" "
                + "x=\"\(SVGText.number(n.bounds.x + 5))\" y=\"\(SVGText.number(n.bounds.y + 12))\">\(SVGText.escape(n.id))\(cls)</text>"
        }
    }

    private func collapsedBadge(_ n: SceneNode, _ count: Int, _ labels: inout Occupancy, _ out: inout String) {
        let text = "+\(count)"
        let w = SVGText.width(text, size: 10) + 10
        let b = n.box
        let x = max(b.x, b.maxX - w - 3), y = max(b.y, b.maxY - 17)
        labels.take(x, y, w, 14)
        out +=
            "<g class=\"collapsed\" data-collapsed=\"\(count)\" data-node-id=\"\(SVGText.escape(n.id))\"><title>\(count) view\(count == 1 ? "" : "s") inside \(SVGText.escape(n.id)) not drawn: too small to see, or deeper than --depth</title>"
        out +=
            "<rect x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y))\" width=\"\(SVGText.number(w))\" height=\"14\" rx=\"7\"/>"
        out += "<text x=\"\(SVGText.number(x + w / 2))\" y=\"\(SVGText.number(y + 10.5))\">\(text)</text></g>"
    }
}

extension SceneNode {
    /// `x y width height` and, when the view is turned or scaled, its `transform`.
    var svgGeometry: String {
        let m = toPicture
        if m.isAxisAligned {
            let b = box
            return
                "x=\"\(SVGText.number(b.x))\" y=\"\(SVGText.number(b.y))\" width=\"\(SVGText.number(b.width))\" height=\"\(SVGText.number(b.height))\""
        }
        let b = bounds
        return
            "x=\"\(SVGText.number(b.x))\" y=\"\(SVGText.number(b.y))\" width=\"\(SVGText.number(b.width))\" height=\"\(SVGText.number(b.height))\" "
            + "transform=\"matrix(\([m.a, m.b, m.c, m.d, m.tx, m.ty].map { SVGText.number($0) }.joined(separator: " ")))\""
    }
}
