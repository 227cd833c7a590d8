import ResponderProtocol

/// Draws a nested tree (as `tree.get` returns it) as indented lines with guide characters, one node per
/// line in child order. Iterative, so any depth draws; past `maxGuideDepth` the guides are abbreviated to
/// `┆ [depth N]` so that deep lines stay short instead of growing without bound.
struct TreeDrawer {
    var firstResponders: Set<String> = []
    var maxGuideDepth = 48

    /// Calls `emit` with each line of the subtree at `root`.
    func draw(_ root: JSON, emit: (String) -> Void) {
        // Per ancestor level below the root: whether that ancestor has siblings still to come (draw "│").
        var guides: [Bool] = []
        var stack: [(node: JSON, depth: Int, last: Bool)] = [(root, 0, true)]
        while let (node, depth, last) = stack.popLast() {
            if guides.count > max(depth - 1, 0) { guides.removeLast(guides.count - max(depth - 1, 0)) }
            var prefix = ""
            if depth > 0 {
                if depth > maxGuideDepth {
                    prefix = "┆ [depth \(depth)] "
                } else {
                    for more in guides { prefix += more ? "│  " : "   " }
                }
                prefix += last ? "└─ " : "├─ "
            }
            emit(prefix + describe(node))
            let children = node["children"]?.arrayValue ?? []
            if depth > 0 { guides.append(!last) }
            for (i, child) in children.enumerated().reversed() {
                stack.append((child, depth + 1, i == children.count - 1))
            }
        }
    }

    /// `id  kind  class  (x, y, w, h)  [flags]`.
    func describe(_ node: JSON) -> String {
        let id = node["id"]?.stringValue ?? "?"
        var parts = [id, node["kind"]?.stringValue ?? "?"]
        if let cls = node["class"]?.stringValue { parts.append(cls) }
        if let frame = node["frame"]?.arrayValue { parts.append("(" + frame.map { Output.number($0) }.joined(separator: ", ") + ")") }
        var flags: [String] = []
        if node["hidden"]?.boolValue == true { flags.append("hidden") }
        if let alpha = node["alpha"]?.doubleValue, alpha < 1 { flags.append("alpha \(Output.number(alpha))") }
        if node["userInteractionEnabled"]?.boolValue == false { flags.append("interaction off") }
        if node["enabled"]?.boolValue == false { flags.append("disabled") }
        if node["key"]?.boolValue == true { flags.append("key") }
        if node["clipsToBounds"]?.boolValue == true { flags.append("clips") }
        if firstResponders.contains(id) { flags.append("★ first responder") }
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: ", ") + "]") }
        return parts.joined(separator: "  ")
    }
}
