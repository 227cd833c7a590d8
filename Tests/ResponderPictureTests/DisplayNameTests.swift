import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderPicture

/// An imported node's display name stands beside its id wherever a picture names it; a node without one is
/// drawn as before, by id and class.
@Suite("Picture: display names beside ids")
struct DisplayNameTests {
    /// The small world with its card named as `responder import` names a view.
    static let named = world(cardExtras: [
        ("class", "MyApp.CardView"), ("annotations", ["displayName": "MyApp.CardView \"Pay\""])
    ])
    static let escapedName = SVGText.escape("MyApp.CardView \"Pay\"")

    @Test("the label, the tooltip and the Graphviz box show the display name; others their class")
    func labels() throws {
        let svg = try Picture.svg(tree: Self.named)
        #expect(svg.contains(">card<tspan class=\"c\"> \(Self.escapedName)</tspan>"), "\(svg)")
        #expect(svg.contains("<title>card · \(Self.escapedName) · view</title>"), "\(svg)")
        #expect(svg.contains(">button<tspan class=\"c\"> UIButton</tspan>"))
        let dot = try Dot.graph(tree: Self.named)
        #expect(dot.contains("<b>card</b><br/><font point-size=\"9\" color=\"#5b6474\">\(Self.escapedName)</font>"))
    }

    @Test("the legend names the views asked and the chain by display name")
    func legend() {
        let hit = HitPath(
            point: Point(60, 150), window: "window", view: "button",
            visited: [
                Visit(id: "card", result: "hit", rule: "H2", point: Point(44, 30)),
                Visit(id: "button", result: "hit", rule: "H2", point: Point(28, 14))
            ])
        let scene = Scene(tree: Self.named)
        let lines = Legend(overlay: Overlay(hit: hit, chain: ["button", "card"]), label: scene.label).lines.map(\.text)
        #expect(lines.contains("1. card (MyApp.CardView \"Pay\") — hit (H2), local (44, 30)"), "\(lines)")
        #expect(lines.contains("2. card (MyApp.CardView \"Pay\")"), "\(lines)")
        #expect(lines.contains("Hit button in window at (60, 150)"), "\(lines)")
        #expect(Scene(tree: world()).label("card") == "card")
        #expect(scene.label("nowhere") == "nowhere")
    }
}
