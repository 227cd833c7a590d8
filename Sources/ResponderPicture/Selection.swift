import ResponderProtocol

/// What to draw of a world: one window, one subtree, a depth, and the size under which a view is too small
/// to see and is counted instead of drawn.
public struct PictureOptions: Sendable, Equatable {
    public var window: String?
    public var subtree: String?
    /// Levels of the node tree below the application (or below `subtree`) to draw; deeper views are counted.
    public var depth: Int?
    /// A view whose box on the picture is narrower or shorter than this (points) is counted, not drawn. Its
    /// subviews are still drawn when they are large enough (a zero-sized container does not hide them).
    public var minSide: Double

    public init(window: String? = nil, subtree: String? = nil, depth: Int? = nil, minSide: Double = 2) {
        self.window = window
        self.subtree = subtree
        self.depth = depth
        self.minSide = minSide
    }
}

public struct PictureError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// The views to draw, the counts of those left out (on the nearest drawn ancestor), the panels shown and the
/// part of the picture they cover.
public struct Selection: Sendable {
    public private(set) var drawn: [Bool]
    /// Drawn view → how many views below it were left out (too small, or deeper than `depth`).
    public private(set) var collapsed: [Int: Int] = [:]
    public private(set) var panels: [Int]
    public private(set) var crop: Rect
    public private(set) var drawnCount = 0

    public init(scene: Scene, options: PictureOptions, keep: Set<String> = []) throws(PictureError) {
        let nodes = scene.nodes
        var drawnFlags = Array(repeating: false, count: nodes.count)
        var collapsedCounts: [Int: Int] = [:]
        var count = 0
        var subtreeRoot: Int?
        if let id = options.subtree {
            guard let i = scene.index[id] else {
                throw PictureError(description: "--subtree: no node \"\(id)\" in the session's tree")
            }
            subtreeRoot = i
        }
        var onlyWindow: Int?
        if let id = options.window {
            guard let i = scene.index[id], let w = nodes[i].window, nodes[i].kind == "window" else {
                let names = scene.windows.map { nodes[$0.node].id }.joined(separator: ", ")
                throw PictureError(
                    description: "--window: no window \"\(id)\" (windows: \(names.isEmpty ? "none" : names))")
            }
            onlyWindow = w
        }
        if let root = subtreeRoot, let w = onlyWindow, nodes[root].window != w {
            throw PictureError(description: "--subtree \(nodes[root].id) is not in window \(options.window!)")
        }
        // `inside[i]`: node i is the subtree root or below it (nodes come in pre-order, parents first).
        var inside = Array(repeating: subtreeRoot == nil, count: nodes.count)
        var relativeDepth = nodes.map(\.depth)
        if let root = subtreeRoot {
            inside[root] = true
            for i in nodes.indices where i != root {
                if let p = nodes[i].parent, inside[p] { inside[i] = true }
            }
            relativeDepth = nodes.map { $0.depth - nodes[root].depth }
        }
        // The drawn ancestor of each node, to credit what is left out.
        var drawnAncestor: [Int?] = Array(repeating: nil, count: nodes.count)
        for (i, n) in nodes.enumerated() {
            let up = n.parent.flatMap { p in drawnFlags[p] ? p : drawnAncestor[p] }
            drawnAncestor[i] = up
            guard n.isView, let w = n.window, inside[i], onlyWindow == nil || onlyWindow == w else { continue }
            let kept = keep.contains(n.id)
            let deep = options.depth.map { relativeDepth[i] > $0 } ?? false
            let small = n.kind != "window" && (n.box.width < options.minSide || n.box.height < options.minSide)
            if (deep || small) && !kept {
                if let up { collapsedCounts[up, default: 0] += 1 }
                continue
            }
            drawnFlags[i] = true
            count += 1
        }
        drawn = drawnFlags
        collapsed = collapsedCounts
        drawnCount = count
        panels = scene.windows.indices.filter { w in
            onlyWindow.map { $0 == w } ?? (subtreeRoot.map { nodes[$0].window == w } ?? true)
        }
        crop = Rect(0, 0, scene.size.x, scene.size.y)
        if subtreeRoot != nil || onlyWindow != nil {
            var box: Rect?
            for w in panels {
                let p = scene.windows[w]
                let title = Rect(
                    p.origin.x, p.origin.y - Scene.titleHeight, max(p.screen.width, 120),
                    p.screen.height + Scene.titleHeight)
                if subtreeRoot == nil { box = box.map { $0.union(title) } ?? title }
            }
            for i in nodes.indices where drawn[i] && subtreeRoot != nil {
                box = box.map { $0.union(nodes[i].box) } ?? nodes[i].box
            }
            if let b = box {
                // From the top, so that the application's row (and the chain's last arrows) stay in the picture.
                let m = Scene.margin
                crop = Rect(b.x - m, 0, b.width + 2 * m, b.maxY + m)
            }
        }
    }

    public func isDrawn(_ i: Int) -> Bool { drawn[i] }
}
