import ResponderProtocol

/// `draw --why`: whyNot's answer about one view, to be drawn — the answer itself (the engine's, unchanged) and
/// its words as `responder why` prints them (the CLI's WhyNotText lines), so picture and text cannot differ.
public struct WhyHighlight: Sendable, Equatable {
    public var view: String
    public var answer: WhyNotAnswer
    public var lines: [String]

    public init(view: String, answer: WhyNotAnswer, lines: [String]) {
        self.view = view
        self.answer = answer
        self.lines = lines
    }

    /// The node to outline as the one to blame: the decisive cause's culprit.
    public var culprit: String? { answer.cause?.culprit }
}

/// Draws a WhyHighlight: where a tap is the view's own (`hittable.area`, filled green), the view (blue), the
/// decisive cause's culprit (red) and the hittable point. Every shape carries `data-why` (`area`, `view`,
/// `culprit`, `point`); the group carries the answer (`data-ok`, `data-rule`, `data-reason`, `data-culprit`,
/// `data-recognizer`) and its words as its title.
struct WhySVG {
    let scene: Scene
    let why: WhyHighlight

    func render() -> String {
        let cause = why.answer.cause
        var out = "<g class=\"why\" data-view=\"\(SVGText.escape(why.view))\" data-ok=\"\(why.answer.ok)\""
        if let cause {
            out += " data-rule=\"\(cause.rule.rawValue)\" data-reason=\"\(cause.reason.rawValue)\""
            if let c = cause.culprit { out += " data-culprit=\"\(SVGText.escape(c))\"" }
            if let r = cause.recognizer { out += " data-recognizer=\"\(SVGText.escape(r))\"" }
        }
        out += "><title>\(SVGText.escape(why.lines.joined(separator: "\n")))</title>"
        let window = scene.index[why.view].flatMap { scene.nodes[$0].window }.map {
            scene.nodes[scene.windows[$0].node].id
        }
        for r in why.answer.hittable.area ?? [] where r.count == 4 {
            guard let p = scene.picturePoint(screen: Point(r[0], r[1]), window: window) else { continue }
            out +=
                "<rect class=\"wa\" data-why=\"area\" x=\"\(SVGText.number(p.x))\" y=\"\(SVGText.number(p.y))\" width=\"\(SVGText.number(r[2]))\" height=\"\(SVGText.number(r[3]))\"/>"
        }
        out += outline(why.view, role: "view")
        if let culprit = why.culprit, culprit != why.view || !why.answer.ok { out += outline(culprit, role: "culprit") }
        if let point = why.answer.hittable.point, let p = scene.picturePoint(screen: point, window: window) {
            let x = SVGText.number(p.x), y = SVGText.number(p.y)
            out +=
                "<g class=\"wp\" data-why=\"point\" data-point=\"\(SVGText.number(point.x)),\(SVGText.number(point.y))\"><title>a tap here is \(SVGText.escape(why.view))'s own: \(SVGText.point(point.x, point.y))</title><circle cx=\"\(x)\" cy=\"\(y)\" r=\"6\"/></g>"
        }
        return out + "</g>"
    }

    /// The view's own shape, outlined: nothing for a node that is not a view drawn on the picture.
    private func outline(_ id: String, role: String) -> String {
        // A dimming view (K17, K18) is outlined over the window it covers.
        guard let i = scene.index[id] ?? scene.dimmingWindow(id), scene.nodes[i].isView else { return "" }
        let cls = role == "view" ? "wv" : "wc"
        return
            "<rect class=\"\(cls)\" data-why=\"\(role)\" data-node-id=\"\(SVGText.escape(id))\" \(scene.nodes[i].svgGeometry)><title>\(role == "view" ? "asked about" : "to blame"): \(SVGText.escape(scene.label(id)))</title></rect>"
    }
}
