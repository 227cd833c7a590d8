import ResponderClient
import ResponderJSON
import ResponderTestSupport
import Testing

/// `responder why` and `responder tap --view` as a script sees them: what they print and their exit status,
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
}
