import ResponderProtocol

/// The explanation beside the picture, as lines of text with a style each: what was asked, every view asked
/// in order and why those passed over were, the responder chain, notes, and a key to the colors. The page
/// shows the same lines as HTML.
public struct Legend: Sendable {
    public enum Style: String, Sendable { case title, heading, text, path, target, miss, skip, chain, note }
    public struct Line: Sendable, Equatable {
        public var style: Style
        public var text: String
        /// The node the line is about (so the page can select it).
        public var node: String?
    }

    public private(set) var lines: [Line] = []
    /// Whether the key explains a why-not highlight, and whether it has a hit test or a chain to explain.
    private var why = false
    private var hitOrChain = false
    /// Whether the hit test is Android's search (its key says so).
    private var android = false

    /// `label` writes a node as the answers do: its id, with its display name beside it when it has one.
    public init(overlay: Overlay, label: (String) -> String = { $0 }) {
        if let title = overlay.title { add(.title, title) }
        android = overlay.isAndroid
        if let profile = overlay.profile {
            add(
                .text,
                android
                    ? "Profile android: Android's View system — the DOWN is offered to children front to back until one consumes it"
                    : "Profile \(profile): UIKit's hit test and responder chain")
        }
        hitOrChain = overlay.hit != nil || !overlay.chain.isEmpty
        if let why = overlay.why {
            self.why = true
            // The words `responder why` prints: the decisive cause (or ok), the others, where a tap is its own.
            for (k, line) in why.lines.enumerated() {
                let style: Style = k == why.lines.count - 1 ? .text : why.answer.ok ? .target : .miss
                let node = k < why.answer.causes.count ? why.answer.causes[k].culprit : why.view
                add(style, line, node: node)
            }
        }
        if let hit = overlay.hit, android {
            androidSearch(hit, label: label)
        } else if let hit = overlay.hit {
            let at = SVGText.point(hit.point.x, hit.point.y)
            if let view = hit.view {
                add(.heading, "Hit \(label(view)) in \(hit.window.map(label) ?? "?") at \(at)", node: view)
            } else {
                add(.heading, "No view at \(at) (no-hit, H1)")
            }
            let outside = hit.visited.filter { $0.reason == "outside-bounds" }.count
            var outsideListed = 0
            for (k, v) in hit.visited.enumerated() {
                if outside > OverlaySVG.tagLimit, v.reason == "outside-bounds" {
                    // A large world: a few, then how many more (each keeps its outline on the picture).
                    outsideListed += 1
                    if outsideListed == 6 {
                        add(.miss, "… \(outside - 5) more views passed over: outside-bounds (\(v.rule))")
                    }
                    if outsideListed >= 6 { continue }
                }
                // `4. textField — miss: outside-bounds (H3), local (28, -46)`
                var text = "\(k + 1). \(label(v.id)) — \(v.result)"
                if let reason = v.reason { text += ": \(reason)" }
                if let to = v.to { text += " → \(label(to))" }
                text += " (\(v.rule))"
                if let p = v.point { text += ", local \(SVGText.point(p.x, p.y))" }
                let style: Style =
                    v.result == "hit" ? (v.id == hit.view ? .target : .path) : v.result == "skipped" ? .skip : .miss
                add(style, text, node: v.id)
            }
            let reasons = hit.visited.compactMap { v in v.result == "hit" ? nil : v.reason }
            var seen = Set<String>()
            let unique = reasons.filter { seen.insert($0).inserted }
            if !unique.isEmpty {
                add(.heading, "Why views were passed over")
                for r in unique {
                    let rule = hit.visited.first { $0.reason == r }?.rule ?? ""
                    add(.text, ReasonText.describe(r) + " (\(rule))")
                }
            }
        }
        if !overlay.chain.isEmpty {
            add(.heading, overlay.chainTitle)
            for (k, id) in overlay.chain.enumerated() { add(.chain, "\(k + 1). \(label(id))", node: id) }
        }
        if !overlay.notes.isEmpty {
            add(.heading, "What happened")
            for n in overlay.notes { add(.note, n) }
        }
    }

    /// Android's search for the DOWN's consumer (AndroidOverlay): each view in the order the search reached it.
    private mutating func androidSearch(_ hit: HitPath, label: (String) -> String) {
        let at = SVGText.point(hit.point.x, hit.point.y)
        if let view = hit.view {
            add(.heading, "\(label(view)) consumed the DOWN in \(hit.window.map(label) ?? "?") at \(at)", node: view)
        } else {
            add(.heading, "Nothing consumed the DOWN at \(at): the Activity gets it (AR5, AR7)")
        }
        for (k, v) in hit.visited.enumerated() {
            var text = "\(k + 1). \(label(v.id)) — "
            if v.result == "hit" {
                text += v.id == hit.view ? "consumed the DOWN" : "holds the target"
                if v.intercepted { text += ", intercepted" }
            } else if v.reason == "declined" {
                text += "offered, declined"
            } else if v.reason == "intercepted" {
                text += "intercepted"
            } else {
                text += "skipped: \(v.reason ?? v.result)"
            }
            text += " (\(v.rule))"
            if let p = v.point { text += ", local \(SVGText.point(p.x, p.y))" }
            let style: Style = v.result == "hit" ? (v.id == hit.view ? .target : .path) : .miss
            add(style, text, node: v.id)
        }
        var seen = Set<String>()
        let reasons = hit.visited.compactMap { v in v.result == "hit" ? nil : v.reason }.filter {
            seen.insert($0).inserted
        }
        if !reasons.isEmpty {
            add(.heading, "Why views were passed over")
            for r in reasons {
                let rule = hit.visited.first { $0.reason == r }?.rule ?? ""
                add(.text, ReasonText.describe(r) + " (\(rule))")
            }
        }
    }

    private mutating func add(_ style: Style, _ text: String, node: String? = nil) {
        lines.append(Line(style: style, text: text, node: node))
    }

    public static let width = 480.0

    /// The legend as SVG at (x, y): the lines (long ones wrapped), then the key. Returns the SVG and its height.
    func render(x: Double, y: Double) -> (svg: String, height: Double) {
        var out = "<g class=\"legend\">"
        var cy = y + 8
        let textX = x + 16
        for line in lines {
            let size = line.style == .title ? 15.0 : line.style == .heading ? 13.0 : 12.0
            if line.style == .heading { cy += 8 }
            let wrapped = Self.wrap(line.text, chars: Int((Self.width - 58) / (size * SVGText.charWidth)))
            for (k, part) in wrapped.enumerated() {
                cy += size + 5
                if k == 0, [.path, .target, .miss, .skip, .chain].contains(line.style) {
                    out +=
                        "<rect class=\"sw \(line.style.rawValue)\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(cy - 10))\" width=\"10\" height=\"10\" rx=\"2\"/>"
                }
                let node = line.node.map { " data-node-id=\"\(SVGText.escape($0))\"" } ?? ""
                let indent = k == 0 ? 0.0 : 14  // continuation lines stand in (SVG drops leading spaces)
                out +=
                    "<text class=\"lg \(line.style.rawValue)\"\(node) x=\"\(SVGText.number(textX + indent))\" y=\"\(SVGText.number(cy))\">\(SVGText.escape(part))</text>"
            }
        }
        cy += 22
        out += "<text class=\"lg heading\" x=\"\(SVGText.number(textX))\" y=\"\(SVGText.number(cy))\">Key</text>"
        var key: [(String, String)] = [
            ("path", "hit path: the views that answered, outermost first"), ("target", "the view hit"),
            ("miss", "passed over (reason in its tag)"), ("skip", "skipped by its hitTest mode"),
            ("chain", "responder chain, numbered"), ("fr", "first responder"),
            ("collapsed", "+N: views too small or too deep to draw")
        ]
        if android {
            key = [
                ("path", "holds the target: the groups from the DecorView down"), ("target", "consumed the DOWN"),
                ("miss", "skipped or declined (reason in its tag)"),
                ("intercepted", "intercepted the DOWN (onInterceptTouchEvent)"), ("fr", "focused view"),
                ("collapsed", "+N: views too small or too deep to draw")
            ]
        }
        if why {
            // A why-not picture alone keys only what it draws.
            if !hitOrChain { key = key.filter { $0.0 == "fr" || $0.0 == "collapsed" } }
            key += [
                ("wv", "the view asked about"), ("wc", "to blame: the decisive cause's culprit"),
                ("wa", "where a tap is the view's own (sampled)")
            ]
        }
        for (cls, text) in key {
            cy += 17
            out +=
                "<rect class=\"sw \(cls)\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(cy - 10))\" width=\"10\" height=\"10\" rx=\"2\"/>"
            out +=
                "<text class=\"lg text\" x=\"\(SVGText.number(textX))\" y=\"\(SVGText.number(cy))\">\(SVGText.escape(text))</text>"
        }
        return (out + "</g>", cy - y + 16)
    }

    /// Breaks text at spaces into lines of at most `chars` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, chars: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > chars {
                lines.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
