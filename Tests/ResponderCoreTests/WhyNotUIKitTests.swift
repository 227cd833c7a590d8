import ResponderCore
import ResponderProtocol
import Testing

/// A table T (delegate RVC) of 44-point rows under R: `cells` are its children; `table` adds fields to T.
private func tableWorld(_ cells: [String], table: String = "") throws -> SessionState {
    let extra = #""class": "UITableView", "contentSize": [400, 1000], "delegate": "RVC""#
    return try session(
        fixtureF([v("T", 0, 0, 400, 600, table.isEmpty ? extra : extra + ", " + table, children: cells)]))
}

private func row(_ id: String, _ index: Double, _ extra: String = "", children: [String] = []) -> String {
    v(
        id, 0, index * 44, 400, 44, #""class": "UITableViewCell""# + (extra.isEmpty ? "" : ", " + extra),
        children: children)
}

/// The decisive cause as `rule reason culprit`, or `ok`.
private func decisive(_ a: WhyNotAnswer) -> String {
    guard let c = a.causes.first else { return "ok" }
    return "\(c.rule.rawValue) \(c.reason.rawValue) \(c.culprit ?? "-")"
}

@Suite("whyNot on cells, text fields and dimming views (K11, K14–K18)")
struct WhyNotUIKitTests {
    @Test("K14 K15 a tap selects the cell: on itself and through a label inside it")
    func K14_K15_selectedIsOK() throws {
        let s = try tableWorld([row("C0", 0, children: [v("L", 16, 12, 200, 20, #""class": "UILabel""#)])])
        #expect(decisive(try s.whyNot("C0", .touch(at: nil))) == "ok")
        #expect(decisive(try s.whyNot("C0", .touch(at: Point(100, 20)))) == "ok", "the label passes it up")
    }

    @Test("K16 a control in the cell takes the tap: control-in-cell, not taken-by-subview")
    func K16_controlInCell() throws {
        let button = v("B", 300, 4, 80, 36, kind: "control", #""class": "UIButton""#)
        let s = try tableWorld([row("C0", 0, children: [button])])
        #expect(decisive(try s.whyNot("C0", .touch(at: Point(340, 20)))) == "K16 control-in-cell B")
        // The same views outside a table: the button is a subview that takes the touch, nothing more (H2).
        let plain = try session(fixtureF([v("C0", 0, 0, 400, 44, children: [button])]))
        #expect(decisive(try plain.whyNot("C0", .touch(at: Point(340, 20)))) == "H2 taken-by-subview B")
    }

    @Test("K14 K15 allowsSelection, shouldHighlight, shouldSelect and a multiple-selection deselect, in that order")
    func K14_K15_selectionCauses() throws {
        let none = try tableWorld([row("C0", 0, #""shouldHighlight": false"#)], table: #""allowsSelection": false"#)
        #expect(decisive(try none.whyNot("C0", .touch(at: nil))) == "K14 selection-disallowed T")
        let refused = try tableWorld([
            row("C0", 0, #""shouldHighlight": false, "shouldSelect": false"#), row("C1", 1, #""shouldSelect": false"#)
        ])
        #expect(decisive(try refused.whyNot("C0", .touch(at: nil))) == "K14 highlight-refused RVC")
        #expect(decisive(try refused.whyNot("C1", .touch(at: nil))) == "K15 selection-refused RVC")
        let multiple = try tableWorld([row("C0", 0, #""selected": true"#)], table: #""allowsMultipleSelection": true"#)
        #expect(decisive(try multiple.whyNot("C0", .touch(at: nil))) == "K15 deselects C0")
        let single = try tableWorld([row("C0", 0, #""selected": true"#)])
        #expect(decisive(try single.whyNot("C0", .touch(at: nil))) == "ok", "single selection: it stays selected")
    }

    @Test("K16 G7 a background recognizer that cancels touches names didSelectRowAt")
    func K16_G7_cancellingRecognizer() throws {
        let s = try session(
            fixtureF(
                [v("T", 0, 0, 400, 600, #""class": "UITableView", "delegate": "RVC""#, children: [row("C0", 0)])],
                rExtra: #""gestureRecognizers": [{"id": "dismiss", "kind": "tap"}]"#))
        let answer = try s.whyNot("C0", .touch(at: nil))
        #expect(decisive(answer) == "G7 cancelled-by-gesture R")
        #expect(answer.causes.first?.detail.contains("tableView(_:didSelectRowAt:)") == true)
    }

    @Test("K11 the delegate refuses to begin or the editing field refuses to end: for a tap and for become")
    func K11_editingRefusals() throws {
        var s = try session(
            fixtureF([
                v("TF", 20, 100, 360, 40, kind: "textField", #""textDelegate": {"shouldBeginEditing": false}"#),
                v("TF1", 20, 200, 360, 40, kind: "textField", #""textDelegate": {"shouldEndEditing": false}"#),
                v("TF2", 20, 300, 360, 40, kind: "textField")
            ]))
        #expect(decisive(try s.whyNot("TF", .touch(at: nil))) == "K11 begin-editing-refused TF")
        #expect(decisive(try s.whyNot("TF", .become)) == "K11 begin-editing-refused TF")
        #expect(decisive(try s.whyNot("TF2", .touch(at: nil))) == "ok", "no one is editing yet")
        #expect(try s.become(["id": "TF1"]).outcome.result)
        #expect(decisive(try s.whyNot("TF2", .touch(at: nil))) == "K11 end-editing-refused TF1")
        #expect(decisive(try s.whyNot("TF2", .become)) == "K11 end-editing-refused TF1")
        #expect(decisive(try s.whyNot("TF1", .touch(at: nil))) == "ok", "already editing")
    }

    @Test("K17 K18 the dimming view is the culprit and its controller is named")
    func K17_K18_dimming() throws {
        for (style, rule) in [("pageSheet", "K17"), ("popover", "K18")] {
            let presented =
                #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC", "modalPresentationStyle": "\#(style)", "children": [\#(v("S", 0, 400, 400, 400))]}"#
            var tree = fixtureF(
                [v("B", 20, 20, 100, 40, kind: "control")], w: #""horizontalSizeClass": "regular""#)
            // The presented controller is the window's second child.
            tree = tree.replacingOccurrences(
                of: #""children": [{"id": "RVC""#, with: #""children": [\#(presented), {"id": "RVC""#)
            let answer = try session(tree).whyNot("B", .touch(at: nil))
            #expect(decisive(answer) == "\(rule) dimmed PVC.dimming", "\(style)")
            #expect(answer.causes.first?.detail.contains("PVC's") == true)
        }
    }
}
