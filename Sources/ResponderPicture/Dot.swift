import ResponderJSON
import ResponderProtocol

/// The world as a Graphviz graph (`dot`): one box per node labelled with its id and its display name or class,
/// parent → child edges, the hit path colored (views passed over red, with their reason), and the responder
/// chain as numbered orange edges. `--depth` and `--subtree` apply; what is cut off is counted on its ancestor.
public enum Dot {
    public static func graph(
        tree: JSON, options: PictureOptions = .init(), overlay: Overlay = .init(),
        firstResponders: [String: String] = [:]
    ) throws(PictureError) -> String {
        let scene = Scene(tree: tree)
        let nodes = scene.nodes
        var root = 0
        if let id = options.subtree {
            guard let i = scene.index[id] else {
                throw PictureError(description: "--subtree: no node \"\(id)\" in the session's tree")
            }
            root = i
        }
        var onlyWindow: Int?
        if let id = options.window {
            guard let i = scene.index[id], nodes[i].kind == "window", let w = nodes[i].window else {
                throw PictureError(description: "--window: no window \"\(id)\"")
            }
            onlyWindow = w
        }
        let keep = Set((overlay.hit?.visited.map(\.id) ?? []) + overlay.chain)
        // Nodes come in pre-order (parents first): `inside` follows the subtree, `up` the nearest shown ancestor.
        var inside = Array(repeating: false, count: nodes.count)
        var shown = Array(repeating: false, count: nodes.count)
        var up: [Int?] = Array(repeating: nil, count: nodes.count)
        var hidden: [Int: Int] = [:]
        inside[root] = true
        shown[root] = true
        for i in nodes.indices where i > root {
            guard let p = nodes[i].parent, inside[p] else { continue }
            inside[i] = true
            up[i] = shown[p] ? p : up[p]
            if let w = onlyWindow, nodes[i].window != w { continue }
            let deep = options.depth.map { nodes[i].depth - nodes[root].depth > $0 } ?? false
            if deep && !keep.contains(nodes[i].id) {
                if let a = up[i] { hidden[a, default: 0] += 1 }
            } else {
                shown[i] = true
            }
        }
        var visits: [String: (Int, Visit)] = [:]
        for (k, v) in (overlay.hit?.visited ?? []).enumerated() { visits[v.id] = (k + 1, v) }
        let firsts = Set(firstResponders.values)
        var out = "digraph world {\n"
        out +=
            "  graph [rankdir=TB, fontname=\"DejaVu Sans\", fontsize=12, nodesep=0.25, ranksep=0.45, bgcolor=\"#eef0f4\""
        if let title = overlay.title { out += ", label=\(quote(title)), labelloc=t" }
        out += "];\n"
        out +=
            "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", color=\"#8893a5\", fontname=\"DejaVu Sans\", fontsize=10];\n"
        out += "  edge [color=\"#9aa3b2\", arrowsize=0.6];\n"
        for i in nodes.indices where shown[i] {
            let n = nodes[i]
            var label = "<b>\(html(n.id))</b><br/><font point-size=\"9\" color=\"#5b6474\">\(html(n.name))</font>"
            var attrs: [String] = []
            if let (k, v) = visits[n.id] {
                label +=
                    "<br/><font point-size=\"9\">\(k). \(html(v.result))\(v.reason.map { " " + html($0) } ?? "") \(html(v.rule))</font>"
                if v.result == "hit" {
                    attrs +=
                        n.id == overlay.hit?.view
                        ? ["fillcolor=\"#c9ebd6\"", "color=\"#0d7a3b\"", "penwidth=3"]
                        : ["color=\"#15924a\"", "penwidth=2.2"]
                } else {
                    attrs += [
                        "color=\"#d32f2f\"", "style=\"rounded,filled,dashed\"", "penwidth=1.8", "fontcolor=\"#b71c1c\""
                    ]
                }
            }
            if let count = hidden[i] {
                label += "<br/><font point-size=\"9\" color=\"#5b6474\">+\(count) not shown</font>"
            }
            if firsts.contains(n.id) {
                attrs.append("peripheries=2");
                label += "<br/><font point-size=\"9\" color=\"#b36b00\">first responder</font>"
            }
            if n.invisible { attrs.append("fontcolor=\"#8893a5\"") }
            out += "  \(quote(n.id)) [label=<\(label)>\(attrs.isEmpty ? "" : ", " + attrs.joined(separator: ", "))];\n"
        }
        for i in nodes.indices where shown[i] && i != root {
            guard let a = up[i] else { continue }
            // A node kept below a cut (on the hit path or the chain) hangs from its nearest shown ancestor, dashed.
            let direct = nodes[i].parent == a
            out += "  \(quote(nodes[a].id)) -> \(quote(nodes[i].id))\(direct ? "" : " [style=dashed]");\n"
        }
        let chain = overlay.chain.filter { scene.index[$0].map { shown[$0] } ?? false }
        for k in chain.indices.dropLast() {
            out +=
                "  \(quote(chain[k])) -> \(quote(chain[k + 1])) [constraint=false, color=\"#e8590c\", fontcolor=\"#e8590c\", penwidth=1.8, label=\"\(k + 1)\"];\n"
        }
        return out + "}\n"
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s {
            if ch == "\\" || ch == "\"" { out.append("\\") }
            out.append(ch == "\n" ? " " : ch)
        }
        return out + "\""
    }

    static func html(_ s: String) -> String { SVGText.escape(s) }
}
