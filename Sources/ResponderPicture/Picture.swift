import ResponderJSON
import ResponderProtocol

/// A whole picture: the world, the overlay and — when there is one — the legend, as one SVG document.
public enum Picture {
    /// The picture's stylesheet; the page (responder web) uses it too.
    public static let style = """
        svg{font-family:"DejaVu Sans","Helvetica Neue",Arial,sans-serif}
        .bg{fill:#eef0f4}
        .shadow{fill:#000;opacity:.10}
        .wt{font-size:13px;font-weight:600;fill:#2b303a}
        .pill{fill:#fff;stroke:#9aa3b2}
        .pt{font-size:12px;fill:#2b303a}
        .v{fill:#5a7aa0;fill-opacity:.05;stroke:#8893a5;stroke-width:1}
        .v.window{fill:#fff;fill-opacity:1;stroke:#5d6675;stroke-width:1.5}
        .v.control{fill:#1f77e6;fill-opacity:.13;stroke:#1f6fd0}
        .v.textField{fill:#20a35a;fill-opacity:.13;stroke:#1e8a4f}
        .v.textView{fill:#8c4fd0;fill-opacity:.11;stroke:#7b46b8}
        .v.other{fill:#999;fill-opacity:.08;stroke:#999}
        .v.hidden{fill:none;stroke:#b0b6c0;stroke-dasharray:3 3}
        .v.fr{stroke:#e08a00;stroke-width:2.5}.v.selected{fill:#1f77e6;fill-opacity:.28}.v.highlighted{fill:#1f77e6;fill-opacity:.18}.dim{fill:#000;fill-opacity:.2;stroke:none}.v.presented{fill:#fff;fill-opacity:1}
        .l{font-size:11px;font-weight:600;fill:#1d2330}
        .l .c{font-weight:400;fill:#5b6474}
        .collapsed rect{fill:#5b6474}
        .collapsed text{font-size:10px;fill:#fff;text-anchor:middle}
        .h{fill:none;stroke-width:2}
        .h.path{stroke:#15924a;stroke-width:2.5}
        .h.target{fill:#15924a;fill-opacity:.22;stroke:#0d7a3b;stroke-width:3.5}
        .h.miss{stroke:#d32f2f;stroke-dasharray:6 4}
        .h.skip{stroke:#7c3aed;stroke-dasharray:2 3}
        .h.intercepted{stroke:#b45309;stroke-width:4;stroke-dasharray:10 3}
        .sw.intercepted{fill:none;stroke:#b45309;stroke-width:2.5;stroke-dasharray:4 1}
        .tag rect{fill:#fff;stroke-width:1.2}
        .tag text{font-size:10.5px;font-weight:600}
        .tag.path rect{stroke:#15924a}.tag.path text{fill:#0d7a3b}
        .tag.target rect{fill:#15924a;stroke:#0d7a3b}.tag.target text{fill:#fff}
        .tag.miss rect{stroke:#d32f2f}.tag.miss text{fill:#b71c1c}
        .tag.skip rect{stroke:#7c3aed}.tag.skip text{fill:#5b21b6}
        .touch circle{fill:#d32f2f;fill-opacity:.18;stroke:#d32f2f;stroke-width:2}
        .touch circle.dot{fill:#d32f2f;fill-opacity:1}
        .touch path{stroke:#d32f2f;stroke-width:2}
        .chain .arrow{fill:none;stroke:#e8590c;stroke-width:2}
        .chain circle{fill:#e8590c;stroke:#fff;stroke-width:1.5}
        .chain text{font-size:11px;font-weight:700;fill:#fff;text-anchor:middle}
        #arrowhead path{fill:#e8590c}
        .lgbox{fill:#fff;stroke:#c9ced6}
        .lg{font-size:12px;fill:#2b303a}
        .lg.title{font-size:15px;font-weight:700}
        .lg.heading{font-size:13px;font-weight:700}
        .lg.miss{fill:#b71c1c}.lg.target{font-weight:700;fill:#0d7a3b}.lg.path{fill:#0d7a3b}.lg.skip{fill:#5b21b6}
        .lg.chain{fill:#c2410c}
        .sw.path{fill:none;stroke:#15924a;stroke-width:2}.sw.target{fill:#15924a}.sw.miss{fill:none;stroke:#d32f2f;stroke-dasharray:3 2;stroke-width:2}
        .sw.skip{fill:none;stroke:#7c3aed;stroke-dasharray:2 2;stroke-width:2}.sw.chain{fill:#e8590c}.sw.fr{fill:none;stroke:#e08a00;stroke-width:2.5}
        .sw.collapsed{fill:#5b6474}
        .wa{fill:#15924a;fill-opacity:.3;stroke:none}
        .wv{fill:none;stroke:#1f6fd0;stroke-width:4}
        .wc{fill:none;stroke:#d32f2f;stroke-width:4}
        .wp circle{fill:#15924a;stroke:#fff;stroke-width:2}
        .sw.wa{fill:#15924a;fill-opacity:.3}.sw.wv{fill:none;stroke:#1f6fd0;stroke-width:2}.sw.wc{fill:none;stroke:#d32f2f;stroke-width:2}
        """

    /// Shared definitions: the chain's arrowhead.
    public static let defs =
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\"/></marker></defs>"

    /// The SVG document for `tree` (an application node in output form) with `overlay` drawn over it.
    public static func svg(
        tree: JSON, options: PictureOptions = .init(), overlay: Overlay = .init(),
        firstResponders: [String: String] = [:]
    ) throws(PictureError) -> String {
        let scene = Scene(tree: tree)
        return try svg(scene: scene, options: options, overlay: overlay, firstResponders: firstResponders)
    }

    public static func svg(scene: Scene, options: PictureOptions, overlay: Overlay, firstResponders: [String: String])
        throws(PictureError) -> String
    {
        let keep = Set(
            (overlay.hit?.visited.map(\.id) ?? []) + overlay.chain
                + [overlay.why?.view, overlay.why?.culprit].compactMap { $0 })
        let selection = try Selection(scene: scene, options: options, keep: keep)
        let world = WorldSVG(scene: scene, selection: selection, firstResponders: firstResponders).render()
        let over =
            overlay.isEmpty
            ? ""
            : OverlaySVG(scene: scene, crop: selection.crop, overlay: overlay, firstResponders: firstResponders)
                .render()
        var crop = selection.crop
        var legend = ""
        if !overlay.isEmpty {
            let x = crop.maxX + 8
            let (svg, height) = Legend(overlay: overlay, label: scene.label).render(x: x + 16, y: Scene.margin)
            legend =
                "<rect class=\"lgbox\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(Scene.margin - 8))\" width=\"\(SVGText.number(Legend.width))\" height=\"\(SVGText.number(height + 8))\" rx=\"8\"/>"
                + svg
            crop = Rect(
                crop.x, crop.y, crop.width + Legend.width + 8 + Scene.margin,
                max(crop.height, height + Scene.margin * 2))
        }
        let w = SVGText.number(crop.width), h = SVGText.number(crop.height)
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"\(SVGText.number(crop.x)) \(SVGText.number(crop.y)) \(w) \(h)\">"
            + "<style>\(style)</style>\(defs)"
            + "<rect class=\"bg\" x=\"\(SVGText.number(crop.x))\" y=\"\(SVGText.number(crop.y))\" width=\"\(w)\" height=\"\(h)\"/>"
            + world + over + legend + "</svg>\n"
    }
}
