import ResponderClient
import ResponderJSON
import ResponderTestSupport
import Testing

/// `responder why`, `tap --view`, `hit --view`, `drag --view` and `touch ID:PHASE:on=VIEW` as a script sees them: what they print and their exit status,
/// against an in-process engine holding a key window W whose root view R holds A and a button B.
@Suite struct WhyBinaryTests {
    /// Inserts a view in front of B (R's last subview), covering it whole.
    private func cover(_ t: CLIEngine) throws {
        _ = try t.engine.connect().call(
            "tree.apply",
            [
                "ops": [
                    [
                        "op": "insert", "parent": "R",
                        "node": ["id": "Cover", "kind": "view", "frame": [0, 380, 400, 100]]
                    ]
                ]
            ])
    }

    private func seq(_ t: CLIEngine) throws -> Int? {
        try t.engine.connect().call("trace.replay", ["after": JSON(1 << 52)])["seq"]?.intValue
    }

    @Test func whyExitsOneWhenTheAnswerIsNotOk() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let ok = try t.run(["why", "B"])
        #expect(ok.status == 0, "\(ok)")
        // Text output shows coordinates to two decimals (the point itself is 58.4375, 421.3125).
        #expect(ok.lines == ["B: ok", "hittable over 100% of it, e.g. at (58.44, 421.31)"])
        try cover(t)
        let covered = try t.run(["why", "B"])
        #expect(covered.status == 1, "\(covered)")
        #expect(covered.lines.first?.hasPrefix("B: not ok (H2, covered): ") == true, "\(covered)")
        #expect(covered.lines.contains("hittable nowhere"), "\(covered)")
        // Then what each rule cited means.
        #expect(covered.lines.last?.hasPrefix("  H2  ") == true, "\(covered)")
        // With --json the status says the same; the answer is the engine's.
        let json = try t.run(["why", "B", "--json"])
        #expect(json.status == 1, "\(json)")
        #expect(try JSONCodec.decode(json.stdout)["cause"]?["culprit"] == "Cover")
    }

    @Test func tapOnAViewTapsWhereTheTapIsItsOwnOrPrintsWhyNot() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let tapped = try t.run(["tap", "--view", "B"])
        #expect(tapped.status == 0, "\(tapped)")
        #expect(
            tapped.lines.first == "tap B at (58.44, 421.31): hittable over 100% of it, e.g. at (58.44, 421.31)")
        #expect(
            tapped.lines.dropFirst().first?.hasPrefix("touch tap-1 began on B: touchesBegan: B") == true, "\(tapped)")

        try cover(t)
        let before = try seq(t)
        let covered = try t.run(["tap", "--view", "B"])
        #expect(covered.status == 1, "\(covered)")
        #expect(covered.stdout.isEmpty, "nothing was tapped: \(covered)")
        #expect(covered.stderr.hasPrefix("B: not ok (H2, covered): "), "\(covered)")
        #expect(covered.stderr.contains("Cover"), "the culprit is named: \(covered)")
        #expect(try seq(t) == before, "nothing was published")

        let missing = try t.run(["tap", "--view", "nope"])
        #expect(missing.status == 1 && missing.stderr.contains("NODE_NOT_FOUND"), "\(missing)")
        #expect(try t.run(["tap"]).status != 0)
        #expect(try t.run(["tap", "1", "2", "--view", "B"]).status != 0)
    }

    @Test func hitAndDragOnAViewStartWhereATapIsItsOwn() throws {
        let t = try CLIEngine()
        defer { t.stop() }
        let hit = try t.run(["hit", "--view", "B"])
        #expect(hit.status == 0, "\(hit)")
        #expect(hit.lines.first == "hit B at (58.44, 421.31): hittable over 100% of it, e.g. at (58.44, 421.31)")
        #expect(hit.lines.dropFirst().first?.hasPrefix("hit B in window W") == true, "\(hit)")
        let drag = try t.run(["drag", "--view", "B", "10", "10"])
        #expect(drag.status == 0, "\(drag)")
        #expect(drag.lines.first?.hasPrefix("drag from B at (58.44, 421.31): ") == true, "\(drag)")
        #expect(drag.lines.dropFirst().first?.contains("began on B") == true, "the drag begins on B: \(drag)")
        let touch = try t.run(["touch", "t9:began:on=B", "t9:ended"])
        #expect(touch.status == 0, "\(touch)")
        #expect(touch.lines.first?.hasPrefix("touch B at (58.44, 421.31): ") == true, "\(touch)")
        #expect(touch.stdout.contains("began on B"), "the touch begins on B: \(touch)")

        try cover(t)
        let before = try seq(t)
        for arguments in [["hit", "--view", "B"], ["drag", "--view", "B", "10", "10"], ["touch", "t8:began:on=B"]] {
            let covered = try t.run(arguments)
            #expect(covered.status == 1 && covered.stdout.isEmpty, "\(arguments): \(covered)")
            #expect(covered.stderr.hasPrefix("B: not ok (H2, covered): "), "\(arguments): \(covered)")
        }
        #expect(try seq(t) == before, "nothing was sent")
        #expect(try t.run(["hit", "1", "2", "--view", "B"]).status != 0)
        #expect(try t.run(["drag", "1", "2", "3", "4", "--view", "B"]).status != 0)
        #expect(try t.run(["drag", "1", "2"]).status != 0)
    }
}
