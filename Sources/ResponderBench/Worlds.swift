import ResponderJSON
import ResponderProtocol

/// The worlds the suite measures on, written straight to bytes (a million nodes never become a `JSON` tree here).
enum Worlds {
    /// The 1,110-view world of the round trips: a key window of 1000×1000 holding 10 panels (rows), each of
    /// 10 groups (columns), each of 10 leaves (rows), less one leaf. `hitPoint` lands in the middle, so a hit
    /// test asks 16 views (5 at each level: the front-most 4 miss, the fifth hits).
    static let hitPoint = (x: 550.0, y: 555.0)

    static func grid1110() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 100_000)
        openWindow(&w, 0, 0, 1000, 1000)
        for p in 0..<10 {
            open(&w, "p\(p)", 0, Double(p * 100), 1000, 100)
            for g in 0..<10 {
                open(&w, "g\(p)_\(g)", Double(g * 100), 0, 100, 100)
                for l in 0..<10 where !(p == 9 && g == 9 && l == 9) {
                    open(&w, "l\(p)_\(g)_\(l)", 0, Double(l * 10), 100, 10)
                    close(&w)
                }
                close(&w)
            }
            close(&w)
        }
        closeWindow(&w)
        return w.takeBytes()
    }

    /// The same layout as an HTML page for Chromium: absolutely positioned divs, 1,111 elements with html,
    /// head and body (the body plays the window).
    static func grid1110HTML() -> String {
        var html =
            "<!doctype html><html><head></head><body style=\"margin:0;position:relative;width:1000px;height:1000px\">"
        func div(_ id: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> String {
            "<div id=\"\(id)\" style=\"position:absolute;left:\(x)px;top:\(y)px;width:\(width)px;height:\(height)px\">"
        }
        for p in 0..<10 {
            html += div("p\(p)", 0, p * 100, 1000, 100)
            for g in 0..<10 {
                html += div("g\(p)_\(g)", g * 100, 0, 100, 100)
                for l in 0..<10 where !(p == 9 && g == 9 && l == 9) {
                    html += div("l\(p)_\(g)_\(l)", 0, l * 10, 100, 10) + "</div>"
                }
                html += "</div>"
            }
            html += "</div>"
        }
        return html + "</body></html>"
    }

    /// A balanced tree of `count` views under a key window, fan-out 10 (node i's children are 10i+1…10i+10);
    /// each level splits its parent's frame into 10 slices, across then down, so a hit test asks about
    /// five views per level.
    static func balanced(_ count: Int) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: count * 72)
        openApplication(&w)
        // Explicit stack: (node, frame, level); negative node closes the node -node-1.
        var stack: [(node: Int, x: Double, y: Double, width: Double, height: Double, level: Int)] = [
            (0, 0, 0, 1_000_000, 1_000_000, 0)
        ]
        while let top = stack.popLast() {
            if top.node < 0 {
                close(&w)
                continue
            }
            if top.node == 0 {
                openWindow(&w, top.x, top.y, top.width, top.height, inApplication: false)
            } else {
                open(&w, "n\(top.node)", top.x, top.y, top.width, top.height)
            }
            stack.append((-top.node - 1, 0, 0, 0, 0, 0))
            let across = top.level % 2 == 0
            for k in (0..<10).reversed() {
                let child = top.node * 10 + 1 + k
                guard child < count else { continue }
                let width = across ? top.width / 10 : top.width
                let height = across ? top.height : top.height / 10
                stack.append(
                    (
                        child, across ? Double(k) * width : 0, across ? 0 : Double(k) * height, width, height,
                        top.level + 1
                    ))
            }
        }
        closeApplication(&w)
        return w.takeBytes()
    }

    /// `count` sibling views of 4 × 8 points in rows of 100, the back-most (`c0`) half covered by `Overlay` in front:
    /// a question about `c0` makes every hit test pass over all its siblings, the slowest case for `whyNot`.
    static func crowded(_ count: Int) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: count * 72)
        openWindow(&w, 0, 0, 400, Double((count + 99) / 100 * 8))
        for i in 0..<count {
            open(&w, "c\(i)", Double(i % 100) * 4, Double(i / 100) * 8, 4, 8)
            close(&w)
        }
        open(&w, "Overlay", 0, 0, 2, 8)
        close(&w)
        closeWindow(&w)
        return w.takeBytes()
    }

    /// A key window holding a chain of `depth` nested views.
    static func chain(_ depth: Int) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: depth * 64)
        openWindow(&w, 0, 0, 100, 100)
        for i in 0..<depth { open(&w, "d\(i)", 0, 0, 100, 100) }
        for _ in 0..<depth { close(&w) }
        closeWindow(&w)
        return w.takeBytes()
    }

    /// `{"tree": <tree>}`: tree.load's params, or a world file.
    static func params(tree: [UInt8]) -> [UInt8] { Array("{\"tree\":".utf8) + tree + [UInt8(ascii: "}")] }

    private static func openApplication(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string("app")
        w.key("kind"); w.string("application")
        w.key("children"); w.beginArray()
    }

    private static func closeApplication(_ w: inout JSONWriter) {
        w.endArray()
        w.endObject()
    }

    /// The key window `W` (inside the application unless `inApplication` is false); `closeWindow` ends both.
    private static func openWindow(
        _ w: inout JSONWriter, _ x: Double, _ y: Double, _ width: Double, _ height: Double, inApplication: Bool = true
    ) {
        if inApplication { openApplication(&w) }
        w.beginObject()
        w.key("id"); w.string("W")
        w.key("kind"); w.string("window")
        frame(&w, x, y, width, height)
        w.key("key"); w.bool(true)
        w.key("children"); w.beginArray()
    }

    private static func closeWindow(_ w: inout JSONWriter) {
        close(&w)
        closeApplication(&w)
    }

    private static func frame(_ w: inout JSONWriter, _ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        w.key("frame"); w.beginArray(); w.number(x); w.number(y); w.number(width); w.number(height); w.endArray()
    }

    /// Opens a view and its children array; `close` ends both.
    private static func open(
        _ w: inout JSONWriter, _ id: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double
    ) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("kind"); w.string("view")
        frame(&w, x, y, width, height)
        w.key("children"); w.beginArray()
    }

    private static func close(_ w: inout JSONWriter) {
        w.endArray()
        w.endObject()
    }
}
