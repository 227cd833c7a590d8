import Foundation
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderPicture

/// A small world in output form: a window with a root view holding a card (scrolled, clipping) with two
/// controls, one turned a quarter.
func world(cardExtras: [(String, JSON)] = [], extraChild: JSON? = nil) -> JSON {
    var cardMembers: [(key: String, value: JSON)] = [("id", "card"), ("kind", "view"), ("frame", [16, 120, 358, 200])]
    cardMembers += cardExtras.map { (key: $0.0, value: $0.1) }
    var cardChildren: [JSON] = [
        ["id": "button", "kind": "control", "class": "UIButton", "frame": [16, 16, 326, 44]],
        [
            "id": "knob", "kind": "control", "class": "UISwitch", "frame": [16, 80, 40, 20],
            "transform": [0, 1, -1, 0, 0, 0]
        ]
    ]
    if let extraChild { cardChildren.append(extraChild) }
    cardMembers.append(("children", .array(cardChildren)))
    return [
        "id": "app", "kind": "application",
        "children": [
            ["id": "delegate", "kind": "appDelegate"],
            [
                "id": "window", "kind": "window", "frame": [0, 0, 390, 844], "key": true,
                "children": [
                    [
                        "id": "rootVC", "kind": "viewController",
                        "children": [
                            [
                                "id": "root", "kind": "view", "frame": [0, 0, 390, 844],
                                "children": [.object(cardMembers)]
                            ]
                        ]
                    ]
                ]
            ]
        ]
    ]
}

func attribute(_ name: String, of id: String, in svg: String, after marker: String = "data-node-id=\"") -> String? {
    guard let start = svg.range(of: "\(marker)\(id)\"") else { return nil }
    let element = svg[..<start.lowerBound].lastIndex(of: "<").map { svg[$0...] } ?? svg[start.lowerBound...]
    let tag = element[..<(element.firstIndex(of: ">") ?? element.endIndex)]
    guard let a = tag.range(of: " \(name)=\"") else { return nil }
    return String(tag[a.upperBound...].prefix { $0 != "\"" })
}

@Suite("Picture: the world laid out")
struct SceneTests {
    @Test("frames, bounds origins and transforms place views as hit-testing would (H4)")
    func placement() {
        let scene = Scene(tree: world(cardExtras: [("boundsOrigin", [0, 10])]))
        let origin = scene.windows[0].origin
        #expect(origin == Point(Scene.margin, Scene.margin + Scene.headerHeight + Scene.titleHeight))
        // card at (16, 120); its bounds origin scrolls the button up by 10.
        #expect(scene["button"]!.box == Rect(origin.x + 32, origin.y + 126, 326, 44))
        // The switch turned a quarter about its center (36, 90 in the card's bounds): 20 wide, 40 tall.
        let knob = scene["knob"]!
        #expect(knob.box == Rect(origin.x + 16 + 26, origin.y + 120 - 10 + 70, 20, 40))
        #expect(!knob.toPicture.isAxisAligned)
        // The inverse of the picture's transform is the engine's conversion: the knob's center is its bounds' center.
        let center = knob.toPicture.apply(Point(20, 10))
        #expect(center == knob.box.center)
    }

    @Test("windows stand side by side, the application and its delegate above them")
    func windowsSideBySide() {
        let two: JSON = [
            "id": "app", "kind": "application",
            "children": [
                ["id": "a", "kind": "window", "frame": [0, 0, 300, 500]],
                ["id": "b", "kind": "window", "frame": [0, 0, 200, 400], "windowLevel": 1],
                ["id": "delegate", "kind": "appDelegate"]
            ]
        ]
        let scene = Scene(tree: two)
        #expect(scene.windows.map { scene.nodes[$0.node].id } == ["a", "b"])
        #expect(scene.windows[1].origin.x == scene.windows[0].origin.x + 300 + Scene.panelGap)
        #expect(scene.topResponders.map { scene.nodes[$0].id } == ["app", "delegate"])
        #expect(
            scene.picturePoint(screen: Point(10, 10), window: "b")
                == Point(scene.windows[1].origin.x + 10, scene.windows[1].origin.y + 10))
    }

    @Test("fields and kinds this client does not know are drawn as well as it can (a newer engine)")
    func unknownFields() throws {
        let slider: JSON = [
            "id": "slider", "kind": "slider", "class": "UISlider", "baseClass": "UIControl", "animating": true,
            "frame": [16, 120, 200, 30], "frame3D": [1, 2, 3]
        ]
        let svg = try Picture.svg(tree: world(extraChild: slider))
        #expect(attribute("class", of: "slider", in: svg) == "v other")
        #expect(svg.contains(">slider<tspan class=\"c\"> UISlider</tspan>"))
    }
}

@Suite("Picture: SVG")
struct SVGTests {
    let hit = HitPath(
        point: Point(60, 150), window: "window", view: "button",
        visited: [
            Visit(id: "window", result: "hit", rule: "H2", point: Point(60, 150)),
            Visit(id: "root", result: "hit", rule: "H2", point: Point(60, 150)),
            Visit(id: "card", result: "hit", rule: "H2", point: Point(44, 30)),
            Visit(id: "knob", result: "miss", reason: "outside-bounds", rule: "H3", point: Point(-3, -40)),
            Visit(id: "button", result: "hit", rule: "H2", point: Point(28, 14))
        ])

    @Test("every view's shape carries data-node-id; the hit path data-hit, data-reason and data-rule")
    func dataAttributes() throws {
        let svg = try Picture.svg(
            tree: world(),
            overlay: Overlay(hit: hit, chain: ["button", "card", "root", "rootVC", "window", "app", "delegate"]))
        for id in ["window", "root", "card", "button", "knob"] {
            #expect(attribute("class", of: id, in: svg)?.hasPrefix("v ") == true, "\(id)")
        }
        #expect(attribute("data-hit", of: "knob", in: svg, after: "class=\"h miss\" data-node-id=\"") == "miss")
        #expect(
            attribute("data-reason", of: "knob", in: svg, after: "class=\"h miss\" data-node-id=\"") == "outside-bounds"
        )
        #expect(attribute("data-rule", of: "knob", in: svg, after: "class=\"h miss\" data-node-id=\"") == "H3")
        #expect(attribute("data-hit", of: "button", in: svg, after: "class=\"h path target\" data-node-id=\"") == "hit")
        #expect(attribute("data-order", of: "button", in: svg, after: "class=\"h path target\" data-node-id=\"") == "5")
        #expect(svg.contains("data-point=\"60,150\""))
        // Seven responders, six arrows, the last to the delegate.
        #expect(svg.components(separatedBy: "class=\"arrow\"").count == 7)
        #expect(svg.contains("data-from=\"app\" data-to=\"delegate\""))
        #expect(svg.contains("outside-bounds: the point is outside its bounds (H3)"))
    }

    @Test("a turned view is drawn with its matrix; clipping views clip what is inside them")
    func transformsAndClipping() throws {
        let svg = try Picture.svg(tree: world(cardExtras: [("clipsToBounds", true)]))
        let scene = Scene(tree: world())
        let m = scene["knob"]!.toPicture
        #expect(
            attribute("transform", of: "knob", in: svg)
                == "matrix(0 1 -1 0 \(SVGText.number(m.tx)) \(SVGText.number(m.ty)))")
        let card = scene.index["card"]!
        #expect(
            svg.contains(
                "<clipPath id=\"clip-\(card)\"><rect x=\"40\" y=\"216\" width=\"358\" height=\"200\"/></clipPath>"))
        let group = try #require(svg.range(of: "<g clip-path=\"url(#clip-\(card))\">"))
        let inside = svg[group.upperBound...]
        #expect(inside.range(of: "data-node-id=\"button\"")!.lowerBound < inside.range(of: "</g>")!.lowerBound)
        // Without clipsToBounds nothing is clipped.
        #expect(!(try Picture.svg(tree: world())).contains("clip-path"))
    }

    @Test("hidden views are drawn dashed, and text is escaped")
    func hiddenAndEscaped() throws {
        let svg = try Picture.svg(tree: world(cardExtras: [("hidden", true), ("class", "My<Card>&")]))
        #expect(attribute("class", of: "button", in: svg) == "v control hidden")
        #expect(svg.contains("My&lt;Card&gt;&amp;"))
        #expect(!svg.contains("My<Card>"))
    }

    @Test("K14 a selected cell is tinted and a highlighted one lighter, with the state in the tooltip")
    func selectedAndHighlightedCells() throws {
        let svg = try Picture.svg(tree: world(cardExtras: [("class", "UITableViewCell"), ("selected", true)]))
        #expect(attribute("class", of: "card", in: svg) == "v view selected")
        #expect(svg.contains("· selected</title>"))
        let highlighted = try Picture.svg(tree: world(cardExtras: [("highlighted", true)]))
        #expect(attribute("class", of: "card", in: highlighted) == "v view highlighted")
        #expect(attribute("class", of: "card", in: try Picture.svg(tree: world())) == "v view")
    }

    @Test("K17 K18 a dimming sheet or popover shades its window behind the presented view; an undimmed one does not")
    func dimmingViews() throws {
        func presenting(_ fields: [(String, JSON)], regular: Bool = false) -> JSON {
            var sheetVC: [(key: String, value: JSON)] = [
                ("id", "sheetVC"), ("kind", "viewController"), ("presentedBy", "rootVC")
            ]
            sheetVC += fields.map { (key: $0.0, value: $0.1) }
            sheetVC.append(("children", [["id": "sheet", "kind": "view", "frame": [0, 400, 390, 444]]]))
            var window: [(key: String, value: JSON)] = [
                ("id", "window"), ("kind", "window"), ("frame", [0, 0, 390, 844]), ("key", true)
            ]
            if regular { window.append(("horizontalSizeClass", "regular")) }
            let root: JSON = [
                "id": "rootVC", "kind": "viewController",
                "children": [
                    [
                        "id": "root", "kind": "view", "frame": [0, 0, 390, 844],
                        "children": [["id": "button", "kind": "control", "frame": [16, 16, 326, 44]]]
                    ]
                ]
            ]
            window.append(("children", [root, .object(sheetVC)]))
            return ["id": "app", "kind": "application", "children": [.object(window)]]
        }
        let svg = try Picture.svg(tree: presenting([]))
        let dim = try #require(svg.range(of: "<rect class=\"dim\" data-dimming=\"sheetVC.dimming\""))
        let sheet = try #require(svg.range(of: "data-node-id=\"sheet\""))
        let button = try #require(svg.range(of: "data-node-id=\"button\""))
        #expect(
            button.lowerBound < dim.lowerBound && dim.lowerBound < sheet.lowerBound,
            "over the presenter, behind the sheet")
        #expect(attribute("width", of: "sheetVC.dimming", in: svg, after: "data-dimming=\"") == "390")
        #expect(attribute("class", of: "sheet", in: svg) == "v view presented", "the sheet is drawn opaque")
        // largestUndimmedDetent at the sheet's detent leaves it undimmed; full screen never dims.
        let undimmed = try Picture.svg(
            tree: presenting([("sheetDetent", "medium"), ("largestUndimmedDetent", "medium")]))
        #expect(!undimmed.contains("data-dimming"))
        #expect(
            !(try Picture.svg(tree: presenting([("modalPresentationStyle", "fullScreen")]))).contains("data-dimming"))
        // A popover dims a regular window (K18).
        let popover = try Picture.svg(tree: presenting([("modalPresentationStyle", "popover")], regular: true))
        #expect(popover.contains("data-dimming=\"sheetVC.dimming\""))
    }

    @Test("views too small or too deep are counted on the nearest drawn view; the hit path is kept")
    func collapse() throws {
        let tiny: JSON = ["id": "dot", "kind": "view", "frame": [1, 1, 1, 1]]
        let scene = Scene(tree: world(extraChild: tiny))
        let small = try Selection(scene: scene, options: PictureOptions())
        #expect(!small.isDrawn(scene.index["dot"]!))
        #expect(small.collapsed[scene.index["card"]!] == 1)
        let deep = try Selection(scene: scene, options: PictureOptions(depth: 4))
        #expect(deep.collapsed[scene.index["card"]!] == 3)
        #expect(!deep.isDrawn(scene.index["button"]!))
        let kept = try Selection(scene: scene, options: PictureOptions(depth: 4), keep: ["button"])
        #expect(kept.isDrawn(scene.index["button"]!) && kept.collapsed[scene.index["card"]!] == 2)
        let svg = try Picture.svg(
            scene: scene, options: PictureOptions(depth: 4), overlay: .init(), firstResponders: [:])
        #expect(svg.contains("data-collapsed=\"3\" data-node-id=\"card\""))
    }

    @Test("--subtree and --window select, and name what does not exist")
    func subtreeAndWindow() throws {
        let scene = Scene(tree: world())
        let sub = try Selection(scene: scene, options: PictureOptions(subtree: "card"))
        #expect(scene.nodes.indices.filter(sub.isDrawn).map { scene.nodes[$0].id } == ["card", "button", "knob"])
        #expect(sub.crop.x == scene["card"]!.box.x - Scene.margin)
        #expect(throws: PictureError(description: "--subtree: no node \"nope\" in the session's tree")) {
            try Selection(scene: scene, options: PictureOptions(subtree: "nope"))
        }
        #expect(throws: PictureError(description: "--window: no window \"card\" (windows: window)")) {
            try Selection(scene: scene, options: PictureOptions(window: "card"))
        }
    }

    @Test("the legend lists every view asked in order, then why, then the chain")
    func legend() {
        let lines = Legend(overlay: Overlay(title: "hitTest at (60, 150)", hit: hit, chain: ["button", "card"])).lines
        #expect(
            lines.map(\.text) == [
                "hitTest at (60, 150)", "Hit button in window at (60, 150)",
                "1. window — hit (H2), local (60, 150)", "2. root — hit (H2), local (60, 150)",
                "3. card — hit (H2), local (44, 30)",
                "4. knob — miss: outside-bounds (H3), local (-3, -40)", "5. button — hit (H2), local (28, 14)",
                "Why views were passed over", "outside-bounds: the point is outside its bounds (H3)",
                "Responder chain", "1. button", "2. card"
            ])
        #expect(lines[5].style == .miss && lines[6].style == .target && lines[2].style == .path)
        #expect(Legend.wrap("aaa bbb ccc", chars: 7) == ["aaa bbb", "ccc"])
        // A crowd of outside-bounds misses: five listed, then a count; the hit path and other reasons in full.
        let crowd =
            (0..<20).map { Visit(id: "v\($0)", result: "miss", reason: "outside-bounds", rule: "H3") }
            + [
                Visit(id: "ghost", result: "miss", reason: "hidden", rule: "H2"),
                Visit(id: "button", result: "hit", rule: "H2")
            ]
        let crowded = Legend(
            overlay: Overlay(hit: HitPath(point: .zero, window: "window", view: "button", visited: crowd))
        ).lines.map(\.text)
        #expect(
            crowded.filter { $0.contains("outside-bounds (H3), ") || $0.hasSuffix("(H3)") && $0.contains("— miss") }
                .count == 5)
        #expect(crowded.contains("… 15 more views passed over: outside-bounds (H3)"))
        #expect(crowded.contains("21. ghost — miss: hidden (H2)") && crowded.contains("22. button — hit (H2)"))
    }

    @Test("the Graphviz graph: boxes, parent edges, the hit path colored, the chain numbered")
    func dot() throws {
        let text = try Dot.graph(
            tree: world(), overlay: Overlay(hit: hit, chain: ["button", "card", "root"]),
            firstResponders: ["window": "button"])
        #expect(text.hasPrefix("digraph world {"))
        #expect(text.contains("\"card\" -> \"button\";"))
        #expect(text.contains("\"rootVC\" -> \"root\";"))
        #expect(text.contains("4. miss outside-bounds H3"))
        #expect(
            text.contains(
                "\"button\" -> \"card\" [constraint=false, color=\"#e8590c\", fontcolor=\"#e8590c\", penwidth=1.8, label=\"1\"];"
            ))
        #expect(text.contains("peripheries=2"))
        let shallow = try Dot.graph(tree: world(), options: PictureOptions(depth: 3))
        #expect(!shallow.contains("\"card\" [") && shallow.contains("+3 not shown"))
        #expect(Dot.quote("a\"b\\c") == "\"a\\\"b\\\\c\"")
    }
}
