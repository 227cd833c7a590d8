import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

/// Fixture F with button B on R, and PVC presented by RVC as a sheet at the medium detent: root view S
/// (0, 400, 400, 400) holding switch SW (0, 0, 60, 40).
private func sheetWorld() throws -> SessionState {
    let presented =
        #"{"id": "PVC", "kind": "viewController", "presentedBy": "RVC", "sheetDetent": "medium", "children": [\#(v("S", 0, 400, 400, 400, children: [v("SW", 0, 0, 60, 40, kind: "control", #""class": "UISwitch""#)]))]}"#
    let tree = fixtureF([v("B", 20, 20, 100, 40, kind: "control")])
        .replacingOccurrences(of: #""children": [{"id": "RVC""#, with: #""children": [\#(presented), {"id": "RVC""#)
    return try session(tree)
}

private func encoded(_ ops: [GuardedOp]) throws -> [JSON] {
    try ops.map { op in
        var w = JSONWriter()
        op.write(to: &w)
        return try JSONCodec.decode(w.bytes)
    }
}

@Suite("A dismissed sheet leaves its window (K17)")
struct SheetDismissalTests {
    @Test("K17 a dismissing tap detaches the sheet in the request's one batch, with its field changes")
    func K17_dismissalIsTheRequestsBatch() throws {
        var s = try sheetWorld()
        let revision = s.world.revision
        // One request: a touch toggles the sheet's switch while another taps the dimming view above it.
        _ = try s.touches([
            ("a", "began", 20, 420, nil), ("b", "began", 200, 100, nil), ("a", "ended", 20, 420, nil),
            ("b", "ended", 200, 100, nil)
        ])
        #expect(s.world.revision == revision + 1, "one request, one revision")
        #expect(s.world["PVC"]?.parent == nil && s.world["PVC"]?.presentedBy == nil)
        #expect(written(s, "SW")["on"] == true)
        #expect(
            try encoded(s.takeChanges()) == [
                json(#"{"op": "update", "id": "PVC", "set": {"presentedBy": null}}"#),
                json(#"{"op": "move", "id": "PVC", "parent": null}"#),
                json(#"{"op": "update", "id": "SW", "set": {"on": true}}"#)
            ])
        // The presenter is hittable again.
        #expect(s.hitTestOutcome(at: Point(40, 40)).view == "B")
    }

    @Test("K17 a refused dismissal leaves the sheet where it is, and the revision too")
    func K17_refusedDismissalChangesNothing() throws {
        var s = try sheetWorld()
        _ = try s.apply(
            [
                GuardedOp(
                    .update(id: "PVC", set: try NodeUpdate(members: [("shouldDismiss", false)], id: "PVC", path: "")))
            ], ifRevision: nil, limits: Limits())
        let revision = s.world.revision
        _ = try s.tap(200, 100)
        #expect(s.world.revision == revision && s.world["PVC"]?.parent == "W")
        #expect(s.takeChanges().isEmpty)
    }
}
