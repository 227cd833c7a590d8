import ResponderJSON
import ResponderOutput
import Testing

/// The side-by-side comparison `responder compare` and the MCP `compare` tool print, from hand-made replies of
/// the two profiles (the shapes of Protocol/README.md 12.5 and 12.10).
@Suite struct ProfileComparisonTests {
    static func json(_ text: String) -> JSON {
        do { return try JSONCodec.decode(text) } catch { fatalError("bad test JSON: \(error)") }
    }

    /// A tap on Btn under an alpha-0 Veil (scenario Q3).
    static let uikitTap = json(
        """
        {"deliveries": [
          {"touch": "tap-1", "phase": "began", "view": "Btn", "window": "W", "message": "touchesBegan",
           "visited": ["Btn"], "handledBy": ["Btn"], "controlEvents": ["touchDown"], "actions": []},
          {"touch": "tap-1", "phase": "ended", "view": "Btn", "window": "W", "message": "touchesEnded",
           "visited": ["Btn"], "handledBy": ["Btn"], "controlEvents": ["touchUpInside"],
           "actions": [{"action": "save", "event": "touchUpInside", "target": "RVC", "performed": true, "by": "RVC"}]}],
         "trace": {"kind": "touch", "steps": [
          {"step": "hitTest", "id": "W", "result": "hit", "rule": "H2", "point": [50, 50]},
          {"step": "hitTest", "id": "Veil", "result": "miss", "reason": "alpha", "rule": "H2", "point": [50, 50]},
          {"step": "hitTest", "id": "Far", "result": "miss", "reason": "outside-bounds", "rule": "H3", "point": [50, 50]},
          {"step": "hitTest", "id": "Btn", "result": "hit", "rule": "H2", "point": [50, 50]},
          {"step": "action", "action": "save", "target": "RVC", "sender": "Btn", "performed": true, "by": "RVC",
           "rule": "A2"}]}}
        """)

    static let androidTap = json(
        """
        {"deliveries": [
          {"touch": "tap-1", "phase": "began", "view": "Veil", "window": "W", "message": "ACTION_DOWN",
           "visited": ["Veil"], "handledBy": ["Veil"], "controlEvents": [], "actions": []},
          {"touch": "tap-1", "phase": "ended", "view": "Veil", "window": "W", "message": "ACTION_UP",
           "visited": ["Veil"], "handledBy": ["Veil"], "controlEvents": [],
           "actions": [{"action": "dismiss", "target": "RVC", "performed": true, "by": "RVC"}]}],
         "trace": {"kind": "touch", "steps": [
          {"step": "intercept", "group": "W", "action": "down", "result": false, "rule": "AI2"},
          {"step": "candidate", "group": "W", "child": "R", "result": "offered", "rule": "AD5"},
          {"step": "candidate", "group": "R", "child": "Veil", "result": "offered", "rule": "AD5"},
          {"step": "offer", "to": "Veil", "action": "down", "via": "onTouchEvent", "result": true, "rule": "AC4"},
          {"step": "activity", "id": "RVC", "method": "dispatchTouchEvent", "action": "down", "result": true,
           "rule": "AR6"},
          {"step": "intercept", "group": "W", "action": "up", "result": false, "rule": "AI2"},
          {"step": "offer", "to": "Veil", "action": "up", "via": "onTouchEvent", "result": true, "rule": "AC4"},
          {"step": "click", "view": "Veil", "listener": "click", "action": "dismiss", "target": "RVC",
           "performed": true, "rule": "AX1"},
          {"step": "activity", "id": "RVC", "method": "dispatchTouchEvent", "action": "up", "result": true,
           "rule": "AR6"}]}}
        """)

    @Test func rowsOfATapPairBeganWithDownAndMarkTheFirstDifference() {
        let c = ProfileComparison(uikit: Self.uikitTap, android: Self.androidTap)
        #expect(c.rows.map(\.event) == ["began/DOWN", "ended/UP"])
        #expect(c.rows.map(\.uikit) == ["Btn (touchDown)", "Btn (touchUpInside) → save"])
        #expect(c.rows.map(\.android) == ["Veil consumed", "Veil consumed, click → dismiss"])
        #expect(c.rows.map(\.differs) == [true, true])
        #expect(c.firstDifference == 0)
        let lines = c.lines()
        #expect(lines[0].hasPrefix("  event") && lines[0].contains("| uikit") && lines[0].hasSuffix("| android"))
        #expect(lines[1].hasPrefix("≠ began/DOWN | Btn (touchDown)"))
        #expect(lines[2].hasPrefix("  ended/UP"))
        #expect(lines.contains("first difference: began/DOWN — uikit: Btn (touchDown), android: Veil consumed"))
    }

    @Test func whyLinesCiteTheDecidingRulesAndWhatAndroidDoesNotTest() {
        let c = ProfileComparison(uikit: Self.uikitTap, android: Self.androidTap)
        // Outside-bounds misses are the ordinary case and are left out.
        #expect(c.uikitWhy == "hit Btn (H2); Veil passed over (H2, alpha); save → RVC (A2)")
        #expect(
            c.androidWhy == "Veil offered (AD5: alpha is not tested), consumed (AC4); Veil click → dismiss on RVC (AX1)"
        )
        #expect(c.lines().suffix(2) == ["why uikit:   " + c.uikitWhy, "why android: " + c.androidWhy])
    }

    @Test func aContextMenuLongPressSaysItsItems() {
        let android = Self.json(
            """
            {"deliveries": [
              {"touch": 1, "phase": "began", "view": "B", "window": "W", "handledBy": ["B"], "actions": []}],
             "trace": {"kind": "touch", "steps": [
              {"step": "offer", "to": "B", "action": "down", "via": "onTouchEvent", "result": true, "rule": "AC4"},
              {"step": "longClick", "view": "B", "listener": "contextMenu", "items": ["copy", "paste"],
               "performed": true, "rule": "AX4"}]}}
            """)
        let c = ProfileComparison(uikit: Self.uikitTap, android: android)
        #expect(c.androidWhy.hasSuffix("B long press → context menu (copy, paste) (AX4)"), "\(c.androidWhy)")
    }

    @Test func theMarkerIsOnTheFirstRowThatDiffersNotTheFirstRow() {
        // The same DOWN in both; the UP clicks in android only.
        let uikit = Self.json(
            """
            {"deliveries": [
              {"touch": 1, "phase": "began", "view": "B", "handledBy": ["B"], "controlEvents": [], "actions": []},
              {"touch": 1, "phase": "ended", "view": "B", "handledBy": ["B"], "controlEvents": [], "actions": []}],
             "trace": {"kind": "touch", "steps": []}}
            """)
        let android = Self.json(
            """
            {"deliveries": [
              {"touch": 1, "phase": "began", "view": "B", "window": "W", "handledBy": ["B"], "actions": []},
              {"touch": 1, "phase": "ended", "view": "B", "window": "W", "handledBy": ["B"],
               "actions": [{"action": "go", "target": "A", "performed": true, "by": "A"}]}],
             "trace": {"kind": "touch", "steps": []}}
            """)
        let c = ProfileComparison(uikit: uikit, android: android)
        #expect(c.rows.map(\.differs) == [false, true])
        #expect(c.firstDifference == 1)
        let lines = c.lines()
        #expect(lines[1].hasPrefix("  began/DOWN") && lines[2].hasPrefix("≠ ended/UP"))
        #expect(lines.contains("first difference: ended/UP — uikit: B, android: B consumed, click → go"))
    }

    @Test func unhandledAndCancelsAreSaidAndTheStepsSplitByEvent() {
        let uikit = Self.json(
            """
            {"deliveries": [
              {"touch": "t", "phase": "began", "view": "R", "handledBy": [], "controlEvents": [], "actions": []},
              {"touch": "t", "phase": "moved", "view": "R", "handledBy": [], "controlEvents": [], "actions": []}],
             "trace": {"kind": "touch", "steps": [
              {"step": "hitTest", "id": "R", "result": "hit", "rule": "H2"},
              {"step": "discard", "message": "touchesBegan", "reason": "end-of-chain", "rule": "N3"}]}}
            """)
        // The DOWN is consumed by Btn; at the MOVE the scroll view intercepts and Btn gets CANCEL. The press step
        // after the DOWN's Activity step fired as the MOVE's deadline: it belongs to the MOVE.
        let android = Self.json(
            """
            {"deliveries": [
              {"touch": "t", "phase": "began", "view": "Btn", "window": "W", "handledBy": ["Btn"], "actions": []},
              {"touch": "t", "phase": "moved", "view": "Btn", "window": "W", "handledBy": ["Btn"], "actions": []}],
             "trace": {"kind": "touch", "steps": [
              {"step": "intercept", "group": "W", "action": "down", "result": false, "rule": "AI2"},
              {"step": "candidate", "group": "SV", "child": "Btn", "result": "offered", "rule": "AD5"},
              {"step": "offer", "to": "Btn", "action": "down", "via": "onTouchEvent", "result": true, "rule": "AC4"},
              {"step": "activity", "id": "A", "method": "dispatchTouchEvent", "action": "down", "result": true,
               "rule": "AR6"},
              {"step": "press", "view": "Btn", "state": "pressed", "rule": "AC5"},
              {"step": "intercept", "group": "W", "action": "move", "result": false, "rule": "AI2"},
              {"step": "intercept", "group": "SV", "action": "move", "result": true, "rule": "AS1"},
              {"step": "cancel", "to": "Btn", "cause": "intercept", "rule": "AI4"},
              {"step": "activity", "id": "A", "method": "dispatchTouchEvent", "action": "move", "result": true,
               "rule": "AR6"}]}}
            """)
        let c = ProfileComparison(uikit: uikit, android: android)
        #expect(c.rows.map(\.uikit) == ["R, unhandled", "R, unhandled"])
        #expect(c.rows.map(\.android) == ["Btn consumed", "SV intercepted; Btn cancelled (intercept)"])
        #expect(c.rows.map(\.event) == ["began/DOWN", "moved/MOVE"])
        #expect(c.firstDifference == 0)
        #expect(c.uikitWhy == "hit R (H2); nobody handled it (N3, end-of-chain); no action")
        #expect(
            c.androidWhy
                == "Btn offered (AD5), consumed (AC4); SV intercepted the MOVE (AS1); Btn cancelled (AI4, intercept); no click"
        )
    }

    @Test func equalOutcomesMarkNothing() {
        let c = ProfileComparison(uikit: Self.uikitTap, android: Self.uikitTap)
        #expect(c.firstDifference == nil)
        #expect(!c.lines().contains { $0.hasPrefix(ProfileComparison.marker) })
        #expect(c.lines().contains("no difference: both models handle every event alike"))
    }

    @Test func aDragIsBeganMovesEndedWithTimesSpreadOverTheDuration() {
        let entries =
            ProfileComparison.drag(
                touch: "drag-1", from: (0, 100), to: (0, 40), steps: 2, duration: 0.3
            ).arrayValue ?? []
        #expect(entries.map { $0["phase"]?.stringValue } == ["began", "moved", "moved", "ended"])
        #expect(entries.map { $0["point"]?.arrayValue?[1].doubleValue } == [100, 70, 40, 40])
        #expect(entries.map { $0["time"]?.doubleValue } == [0, 0.15, 0.3, 0.3])
        let json = ProfileComparison.json(uikit: .null, android: .null, firstDifference: nil)
        #expect(json["firstDifference"] == .null && json["uikit"] == .null)
    }
}
