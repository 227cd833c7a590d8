import ResponderJSON
import ResponderOutput
import ResponderPicture
import ResponderProtocol
import Testing

@testable import ResponderWeb

/// The why panel's lines are `responder why`'s (WhyNotText.report) one for one, each tagged with what it is and
/// the node it blames; the hittable point lands in the panel of the view's window.
@Suite struct WhyPanelTests {
    static let tree: JSON = [
        "id": "app", "kind": "application",
        "children": [
            [
                "id": "W", "kind": "window", "frame": [0, 0, 400, 800],
                "children": [
                    [
                        "id": "button", "kind": "control", "class": "UIButton", "frame": [20, 100, 200, 60],
                        "annotations": ["displayName": "UIButton \"Sign in\""]
                    ],
                    [
                        "id": "banner", "kind": "view", "frame": [0, 90, 400, 50],
                        "annotations": ["displayName": "PromoBanner \"50% off\""]
                    ]
                ]
            ]
        ]
    ]

    @Test func aCoveredViewsLinesAreTheCommandsWithTheirCulprits() throws {
        let scene = Scene(tree: Self.tree)
        let answer = WhyNotAnswer(
            ok: false,
            causes: [
                WhyNotCause(rule: .h2, reason: .covered, culprit: "banner", detail: "banner covers button."),
                WhyNotCause(rule: .h7, reason: .disabledControl, culprit: "button", detail: "button is disabled.")
            ],
            hittable: Hittable(fraction: 0.34, point: Point(120, 150)))
        let message = WhyPanel.message(answer, raw: .null, view: "button", scene: scene)
        let lines = try #require(message["lines"]?.arrayValue)
        #expect(
            lines.map { $0["text"]?.stringValue } == WhyNotText.report(answer, view: "button (UIButton \"Sign in\")"))
        #expect(
            lines.map { $0["style"]?.stringValue }
                == ["cause", "also", "hittable", "legend", "legend", "legend"])
        #expect(lines[0]["node"] == "banner" && lines[1]["node"] == "button")
        #expect(message["causes"]?.arrayValue?.first?["culpritLabel"] == "banner (PromoBanner \"50% off\")")
        #expect(message["causes"]?.arrayValue?.first?["ruleTitle"]?.stringValue == Rule.h2.title)
        // The screen point, moved into the window's panel on the picture.
        let panel = try #require(scene.windows.first)
        #expect(message["mark"]?["x"]?.doubleValue == 120 - panel.screen.x + panel.origin.x)
        #expect(message["mark"]?["y"]?.doubleValue == 150 - panel.screen.y + panel.origin.y)
        #expect(message["mark"]?["screen"] == [120, 150])
    }

    @Test func anOkViewLeadsWithOkAndAViewHittableNowhereHasNoMark() {
        let scene = Scene(tree: Self.tree)
        let ok = WhyNotAnswer(ok: true, causes: [], hittable: Hittable(fraction: 1, point: Point(50, 120)))
        let lines = WhyPanel.lines(ok, view: "button", scene: scene)
        #expect(lines.map { $0["style"]?.stringValue } == ["ok", "hittable"])
        #expect(lines[0]["text"]?.stringValue == "button (UIButton \"Sign in\"): ok")
        let nowhere = WhyNotAnswer(
            ok: false,
            causes: [WhyNotCause(rule: .h2, reason: .hidden, culprit: "button", detail: "button is hidden.")],
            hittable: Hittable(fraction: 0, point: nil))
        #expect(WhyPanel.message(nowhere, raw: .null, view: "button", scene: scene)["mark"] == .null)
    }
}
