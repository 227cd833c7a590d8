import ResponderJSON
import ResponderOutput
import ResponderPicture
import ResponderProtocol

/// The why panel of the view selected in the page: the engine's `whyNot` answer in exactly the lines
/// `responder why` prints (WhyNotText.report: the page and the command cannot disagree), each line tagged with
/// what it is and the node it blames, the causes with their culprits' display names and their rules' meanings,
/// and where the hittable point and area lie on the picture.
package enum WhyPanel {
    package static func message(_ answer: WhyNotAnswer, raw: JSON, view: String, scene: Scene) -> JSON {
        .object([
            ("ok", .bool(answer.ok)),
            ("lines", .array(lines(answer, view: view, scene: scene))),
            (
                "causes",
                .array(
                    answer.causes.map { c in
                        [
                            "rule": .string(c.rule.rawValue), "ruleTitle": .string(c.rule.title),
                            "reason": .string(c.reason.rawValue), "culprit": JSON(c.culprit),
                            "culpritLabel": JSON(c.culprit.map(scene.label)), "detail": .string(c.detail)
                        ]
                    })
            ),
            ("fraction", .number(answer.hittable.fraction)),
            ("mark", mark(answer.hittable.point, view: view, scene: scene)),
            ("area", .array(area(answer.hittable.area ?? [], view: view, scene: scene))),
            ("answer", raw)
        ])
    }

    /// The report's lines: `{text, style, node?}` with style `ok`, `cause` (the decisive one), `also`,
    /// `hittable` or `legend`.
    static func lines(_ answer: WhyNotAnswer, view: String, scene: Scene) -> [JSON] {
        let main = WhyNotText.lines(answer, view: scene.label(view))
        let first = answer.ok ? 1 : 0
        var out: [JSON] = []
        for (k, text) in main.enumerated() {
            let c = k - first
            if answer.ok && k == 0 {
                out.append(["text": .string(text), "style": "ok", "node": .string(view)])
            } else if c >= 0 && c < answer.causes.count {
                let cause = answer.causes[c]
                out.append([
                    "text": .string(text), "style": .string(c == 0 ? "cause" : "also"), "node": JSON(cause.culprit),
                    "rule": .string(cause.rule.rawValue)
                ])
            } else {
                out.append(["text": .string(text), "style": "hittable", "node": .string(view)])
            }
        }
        for text in WhyNotText.legend(answer) { out.append(["text": .string(text), "style": "legend"]) }
        return out
    }

    /// The hittable point on the picture, in the panel of the view's window: `{x, y, screen: [x, y]}`, or null.
    static func mark(_ point: Point?, view: String, scene: Scene) -> JSON {
        guard let point else { return .null }
        let window = scene.index[view].flatMap { scene.nodes[$0].window }.map { scene.nodes[scene.windows[$0].node].id }
        guard let p = scene.picturePoint(screen: point, window: window) else { return .null }
        return ["x": .number(p.x), "y": .number(p.y), "screen": [.number(point.x), .number(point.y)]]
    }

    /// The rectangles where a tap is the view's own, on the picture: `[x, y, width, height]` in the picture's
    /// coordinates. A window's panel is its screen rectangle moved, so a rectangle moves with its corner.
    static func area(_ rects: [[Double]], view: String, scene: Scene) -> [JSON] {
        let window = scene.index[view].flatMap { scene.nodes[$0].window }.map { scene.nodes[scene.windows[$0].node].id }
        return rects.compactMap { r in
            guard r.count == 4, let corner = scene.picturePoint(screen: Point(r[0], r[1]), window: window) else {
                return nil
            }
            return [.number(corner.x), .number(corner.y), .number(r[2]), .number(r[3])]
        }
    }
}
