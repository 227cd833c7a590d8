import ResponderProtocol
import Testing

@testable import ResponderCore

/// What the core reports when it refuses: the rule as a `CoreError` case, with the node and the field, and
/// where it happened (the op of a batch, the touch of a request) as a wrapping case, not as text.
@Suite struct CoreErrorTests {
    /// Fixture F with a text field `TF` under `R`.
    func fixture() throws -> SessionState {
        try session(fixtureF([v("TF", 0, 0, 100, 40, kind: "textField")]))
    }

    func opsError(_ s: SessionState, _ texts: [String]) -> CoreError? {
        var copy = s
        let parsed = texts.enumerated().map { try! GuardedOp(wire: json($0.element), index: $0.offset) }
        do throws(CoreError) {
            _ = try copy.apply(parsed, ifRevision: nil, limits: .default)
        } catch {
            #expect(copy.world == s.world, "a refused batch changed the world")
            return error
        }
        return nil
    }

    @Test("a bad op is named by its index, its node and the field of the op that named it")
    func badOpNamesOpNodeAndField() throws {
        let s = try fixture()
        let hide = #"{"op": "update", "id": "TF", "set": {"hidden": true}}"#
        #expect(
            opsError(s, [hide, #"{"op": "update", "id": "ghost", "set": {}}"#])
                == .inOp(1, .noNode("ghost", field: "id")))
        #expect(
            opsError(s, [hide, #"{"op": "insert", "parent": "ghost", "node": {"id": "n", "kind": "view"}}"#])
                == .inOp(1, .noNode("ghost", field: "parent")))
        #expect(opsError(s, [#"{"op": "move", "id": "R", "parent": "TF"}"#]) == .inOp(0, .cycle("R", parent: "TF")))
        #expect(
            opsError(s, [#"{"op": "insert", "parent": "R", "index": 7, "node": {"id": "n", "kind": "view"}}"#])
                == .inOp(0, .indexOutOfRange(7, count: 1)))
        #expect(opsError(s, [#"{"op": "remove", "id": "app"}"#]) == .inOp(0, .applicationFixed("app", removal: true)))
        #expect(
            opsError(s, [#"{"op": "insert", "parent": "app", "node": {"id": "v", "kind": "view"}}"#])
                == .inOp(0, .misplaced("v", parent: "app", rule: .applicationHolds)))
        #expect(
            opsError(s, [#"{"op": "update", "id": "R", "set": {"text": "x"}}"#])
                == .inOp(0, .fieldNotApplicable("R", field: "text", kind: .view)))
        let located = opsError(s, [hide, #"{"op": "update", "id": "ghost", "set": {}}"#])
        #expect(located?.node == "ghost" && located?.unlocated == .noNode("ghost", field: "id"))
    }

    @Test("a rule checked when the batch completes names the last op that touched the node")
    func batchEndRulesNameTheLastOp() throws {
        let s = try fixture()
        #expect(
            opsError(
                s,
                [
                    #"{"op": "update", "id": "TF", "set": {"hidden": true}}"#,
                    #"{"op": "insert", "parent": "app", "node": {"id": "W2", "kind": "window", "key": true}}"#
                ])
                == .afterOp(1, .severalKeyWindows(keys: ["W", "W2"])))
        #expect(
            opsError(
                s,
                [
                    #"{"op": "insert", "parent": "W", "node": {"id": "VC2", "kind": "viewController", "children": [{"id": "R2", "kind": "view"}]}}"#
                ])
                == .afterOp(
                    0, .brokenInvariant("W", rule: .severalRootViewControllers(window: "W", roots: ["RVC", "VC2"]))))
    }

    @Test("a document's errors keep its own paths and name no op")
    func loadErrorsAreUnlocated() {
        var world = World()
        do throws(CoreError) {
            let detached = [
                NodeTree(root: NodeSpec(id: "d", kind: .view), path: "detached[0]"),
                NodeTree(root: NodeSpec(id: "d", kind: .view), path: "detached[1]")
            ]
            try world.load(
                tree: NodeTree(root: NodeSpec(id: "app", kind: .application), path: "tree"), detached: detached)
            Issue.record("a duplicate id was loaded")
        } catch {
            #expect(error == .duplicateID("d", field: "detached[1].id"))
        }
        do throws(CoreError) {
            try world.load(tree: NodeTree(root: NodeSpec(id: "w", kind: .window), path: "tree"))
            Issue.record("a window was loaded as the root")
        } catch {
            #expect(error == .rootNotApplication("w", kind: .window, field: "tree.kind"))
        }
    }

    @Test("a time before the clock names the touch it came with; a tap's names its own time")
    func timeBeforeClock() throws {
        var s = try fixture()
        _ = try s.advanceClock(to: 1, by: nil)
        do throws(CoreError) {
            _ = try s.touch([TouchInput(touch: "t", phase: .began, point: Point(5, 5), time: 0.5)], client: "c")
            Issue.record("a touch went back in time")
        } catch {
            #expect(error == .inTouch(0, .timeBeforeClock(0.5, clock: 1, touch: 0)))
        }
        do throws(CoreError) {
            _ = try s.tap(at: Point(5, 5), time: 0.5, client: "c")
            Issue.record("a tap went back in time")
        } catch {
            #expect(error == .timeBeforeClock(0.5, clock: 1, touch: nil))
        }
    }

    @Test("events: a touch or press held by another client says whose it is")
    func heldEvents() throws {
        var s = try fixture()
        _ = try s.touch([TouchInput(touch: "t", phase: .began, point: Point(5, 5))], client: "a")
        do throws(CoreError) {
            _ = try s.touch([TouchInput(touch: "t", phase: .moved, point: Point(6, 6))], client: "b")
            Issue.record("another client moved the touch")
        } catch {
            #expect(error == .inTouch(0, .touchInUse("t", client: "a", reason: .otherClient)))
        }
        _ = try s.press("p", key: "a", phase: .began, client: "a")
        do throws(CoreError) {
            _ = try s.press("p", key: "a", phase: .began, client: "b")
            Issue.record("a live press began again")
        } catch {
            #expect(error == .pressInUse("p", client: "a", reason: .live))
        }
        do throws(CoreError) {
            _ = try s.makeKey("TF")
            Issue.record("a text field became key")
        } catch {
            #expect(error == .notAWindow("TF", kind: .textField, field: nil) && error.node == "TF")
        }
    }
}
