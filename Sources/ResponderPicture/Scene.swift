import ResponderJSON
import ResponderProtocol

/// One node of the world placed on the picture. Views carry their geometry; view controllers, windows, the
/// application and its delegate carry only what the responder chain needs.
public struct SceneNode: Sendable {
    public var id: String
    public var kind: String
    public var className: String
    /// The name a developer recognises it by (`UIButton "Sign in"`, an imported node's annotation), if any.
    public var displayName: String?
    /// What the picture and the outline call it beside its id: its display name, else its class.
    public var name: String { displayName ?? className }
    /// Depth in the node tree: the application is 0, its windows 1 (as `responder tree` draws it).
    public var depth: Int
    public var parent: Int?
    /// Index into `Scene.windows` of the window the node is in; nil for the application and its delegate.
    public var window: Int?
    /// A view kind (window, view, control, textField, textView, or a kind this client does not know that has a frame).
    public var isView: Bool
    /// The view's bounds in its own coordinates: (boundsOrigin, frame size).
    public var bounds: Rect
    /// From the view's bounds coordinates to the picture's.
    public var toPicture: AffineTransform
    /// The axis-aligned box around the view on the picture.
    public var box: Rect
    /// The nearest ancestor view that clips its subviews (`clipsToBounds`).
    public var clip: Int?
    /// Hidden, or alpha below 0.01 — the view itself or an ancestor: the user sees none of it.
    public var invisible: Bool
    /// Its alpha times its ancestors'.
    public var alpha: Double
    /// A view controller's root view.
    public var rootView: Int?
    /// What sets the view apart, for its tooltip and the page: `hidden`, `alpha 0.5`, `interaction off`, …
    public var flags: [String]
}

/// A window drawn as a panel of its own; panels stand side by side, left to right in the application's order.
/// A sheet's or popover's dimming view (K17, K18): no node of the tree, drawn over its window.
public struct SceneDimming: Sendable {
    public var id: String
    /// The window node it covers.
    public var window: Int
}

public struct WindowPanel: Sendable {
    public var node: Int
    /// The window's box in screen coordinates.
    public var screen: Rect
    /// Where the window's screen box starts on the picture.
    public var origin: Point
}

/// The world laid out for drawing: every node of the application's tree with its place on the picture.
/// Built from the tree as `session.snapshot` or `tree.get` give it (section 8.5); members this client does
/// not know are ignored, and a missing field takes its default.
public struct Scene: Sendable {
    public private(set) var nodes: [SceneNode] = []
    public private(set) var windows: [WindowPanel] = []
    public private(set) var index: [String: Int] = [:]
    /// The application and its delegate: drawn as pills above the windows.
    public private(set) var topResponders: [Int] = []
    /// The picture's size: the panels and their titles.
    public private(set) var size: Point = .zero
    /// K17, K18: the dimming views of presented sheets and popovers (`<controller>.dimming`), each drawn over its
    /// window directly behind the presented root view: that root view's index → the dimming view.
    public private(set) var dimmingBefore: [Int: SceneDimming] = [:]

    public static let margin = 24.0

    /// `0x7f8a5c514000 (UIButton "Sign in")`: a node's id with its display name beside it, as every answer writes
    /// it; the id alone for a node without one, or not in the scene.
    public func label(_ id: String) -> String {
        NodeDisplayName.label(id, name: index[id].flatMap { nodes[$0].displayName })
    }
    public static let headerHeight = 44.0
    public static let titleHeight = 28.0
    public static let panelGap = 48.0

    public init(tree: JSON) {
        let windowNodes = (tree["children"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "window" }
        var x = Self.margin
        var height = 0.0
        var panels: [Rect] = []
        for w in windowNodes {
            let screen = Self.placing(w).box(Self.bounds(w))
            panels.append(screen)
            height = max(height, screen.height)
        }
        var origins: [Point] = []
        for screen in panels {
            origins.append(Point(x, Self.margin + Self.headerHeight + Self.titleHeight))
            x += max(screen.width, 120) + Self.panelGap
        }
        size = Point(
            max(x - Self.panelGap + Self.margin, 320), Self.margin * 2 + Self.headerHeight + Self.titleHeight + height)
        walk(tree, panels: panels, origins: origins)
    }

    public subscript(id: String) -> SceneNode? { index[id].map { nodes[$0] } }

    /// The window node a dimming view (`<controller>.dimming`) covers, when the picture draws it.
    public func dimmingWindow(_ id: String) -> Int? {
        dimmingBefore.values.first { $0.id == id }?.window
    }

    /// The window panel a node is in.
    public func panel(of node: Int) -> WindowPanel? { nodes[node].window.map { windows[$0] } }

    /// A screen point on the picture, in the panel of `window` (by default the first window whose screen box holds it).
    public func picturePoint(screen p: Point, window: String? = nil) -> Point? {
        let panel =
            window.flatMap { id in windows.first { nodes[$0.node].id == id } }
            ?? windows.first { $0.screen.contains(p) } ?? windows.first
        guard let panel else { return nil }
        return Point(p.x - panel.screen.x + panel.origin.x, p.y - panel.screen.y + panel.origin.y)
    }

    private struct Pending {
        var json: JSON
        var parent: Int?
        var depth: Int
        var window: Int?
        var superMatrix: AffineTransform?
        var clip: Int?
        var invisible: Bool
        var alpha: Double
    }

    /// Iterative pre-order walk (back to front, as UIKit draws), so a world of any depth lays out.
    private mutating func walk(_ root: JSON, panels: [Rect], origins: [Point]) {
        var stack = [
            Pending(
                json: root, parent: nil, depth: 0, window: nil, superMatrix: nil, clip: nil, invisible: false, alpha: 1)
        ]
        var windowCount = 0
        var regular: Set<Int> = []  // windows with a regular horizontal size class
        var dimmingOf: [Int: String] = [:]  // presented controller → its dimming view's id
        while let p = stack.popLast() {
            let json = p.json
            let id = json["id"]?.stringValue ?? "?"
            let kind = json["kind"]?.stringValue ?? "?"
            let isView = json["frame"]?.arrayValue != nil || Self.viewKinds.contains(kind)
            var node = SceneNode(
                id: id, kind: kind, className: json["class"]?.stringValue ?? kind,
                displayName: NodeDisplayName.of(json), depth: p.depth,
                parent: p.parent, window: p.window, isView: isView, bounds: .zero, toPicture: .identity,
                box: .zero, clip: p.clip, invisible: p.invisible, alpha: p.alpha, rootView: nil,
                flags: Self.flags(json))
            let i = nodes.count
            var childMatrix = p.superMatrix
            var childClip = p.clip
            var childWindow = p.window
            if kind == "window", p.depth == 1, windowCount < panels.count {
                let screen = panels[windowCount], origin = origins[windowCount]
                windows.append(WindowPanel(node: i, screen: screen, origin: origin))
                node.window = windowCount
                childWindow = windowCount
                windowCount += 1
                node.toPicture = .translation(origin.x - screen.x, origin.y - screen.y) * Self.placing(json)
            } else if isView, let m = p.superMatrix {
                node.toPicture = m * Self.placing(json)
            } else if isView {
                node.isView = false  // a view outside any window (not drawn)
            }
            if node.isView {
                node.bounds = Self.bounds(json)
                node.box = node.toPicture.box(node.bounds)
                node.invisible =
                    p.invisible || json["hidden"]?.boolValue == true || (json["alpha"]?.doubleValue ?? 1) < 0.01
                node.alpha = p.alpha * (json["alpha"]?.doubleValue ?? 1)
                childMatrix = node.toPicture
                if json["clipsToBounds"]?.boolValue == true { childClip = i }
            }
            if kind == "window", json["horizontalSizeClass"]?.stringValue == "regular" { regular.insert(i) }
            if kind == "viewController", let w = p.parent, nodes[w].kind == "window",
                Self.dims(json, regular: regular.contains(w))
            {
                dimmingOf[i] = id + ".dimming"
            }
            if let parent = p.parent, nodes[parent].kind == "viewController", nodes[parent].rootView == nil, node.isView
            {
                nodes[parent].rootView = i
                if let dimming = dimmingOf[parent], let w = nodes[parent].parent {
                    dimmingBefore[i] = SceneDimming(id: dimming, window: w)
                }
            }
            if p.depth == 1, kind != "window" || node.window == nil { topResponders.append(i) }
            if p.depth == 0 { topResponders.append(i) }
            nodes.append(node)
            index[id] = i
            for child in (json["children"]?.arrayValue ?? []).reversed() {
                stack.append(
                    Pending(
                        json: child, parent: i, depth: p.depth + 1, window: childWindow, superMatrix: childMatrix,
                        clip: childClip, invisible: node.invisible, alpha: node.alpha))
            }
        }
    }

    static let viewKinds: Set<String> = ["window", "view", "control", "textField", "textView"]

    /// K17, K18 as the engine applies them to a window's presented controller: a sheet (the default style) dims
    /// while its detent is above `largestUndimmedDetent` (every detent when that is unset) or while it is modal in
    /// presentation; a popover dims in a regular window and is a form sheet in a compact one.
    static func dims(_ json: JSON, regular: Bool) -> Bool {
        guard json["presentedBy"]?.stringValue != nil else { return false }
        var style = json["modalPresentationStyle"]?.stringValue ?? "automatic"
        if style == "popover" { style = regular ? "popover" : "formSheet" }
        switch style {
        case "popover": return true
        case "automatic", "pageSheet", "formSheet":
            if json["modalInPresentation"]?.boolValue == true { return true }
            guard let largest = json["largestUndimmedDetent"]?.stringValue else { return true }
            let detent = json["sheetDetent"]?.stringValue ?? "large"
            return detent == "large" && largest == "medium"
        default: return false
        }
    }

    static func numbers(_ json: JSON?, _ count: Int) -> [Double]? {
        guard let a = json?.arrayValue, a.count == count else { return nil }
        let values = a.map { $0.doubleValue ?? .nan }
        return values.allSatisfy(\.isFinite) ? values : nil
    }

    static func frame(_ json: JSON) -> Rect {
        guard let f = numbers(json["frame"], 4) else { return .zero }
        return Rect(f[0], f[1], max(f[2], 0), max(f[3], 0))
    }

    static func bounds(_ json: JSON) -> Rect {
        let f = frame(json)
        let o = numbers(json["boundsOrigin"], 2) ?? [0, 0]
        return Rect(o[0], o[1], f.width, f.height)
    }

    static func placing(_ json: JSON) -> AffineTransform {
        let o = numbers(json["boundsOrigin"], 2) ?? [0, 0]
        let t = numbers(json["transform"], 6).map { AffineTransform($0[0], $0[1], $0[2], $0[3], $0[4], $0[5]) }
        return .placing(frame: frame(json), boundsOrigin: Point(o[0], o[1]), transform: t)
    }

    /// Flags worth a glance; fields this client does not know are left to the page's field list.
    static func flags(_ json: JSON) -> [String] {
        var out: [String] = []
        if json["hidden"]?.boolValue == true { out.append("hidden") }
        if let alpha = json["alpha"]?.doubleValue, alpha < 1 { out.append("alpha \(SVGText.number(alpha))") }
        if json["userInteractionEnabled"]?.boolValue == false { out.append("interaction off") }
        if json["enabled"]?.boolValue == false { out.append("disabled") }
        if json["clipsToBounds"]?.boolValue == true { out.append("clips") }
        if json["key"]?.boolValue == true { out.append("key") }
        if let t = numbers(json["transform"], 6), t != [1, 0, 0, 1, 0, 0] { out.append("transform") }
        if let o = numbers(json["boundsOrigin"], 2), o != [0, 0] {
            out.append("bounds origin (\(SVGText.number(o[0])), \(SVGText.number(o[1])))")
        }
        if let mode = json["hitTest"]?["mode"]?.stringValue, mode != "default" { out.append("hitTest \(mode)") }
        // K14–K16: a cell's state, as `tree` shows it.
        if json["selected"]?.boolValue == true { out.append("selected") }
        if json["highlighted"]?.boolValue == true { out.append("highlighted") }
        return out
    }
}
