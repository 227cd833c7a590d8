import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderCore

/// The world model: validation, placement, atomic batches and limits — in memory, no engine.
@Suite struct WorldTests {
    func ops(_ list: [JSON]) throws -> [GuardedOp] {
        try list.enumerated().map { try GuardedOp.parse($0.element, index: $0.offset) }
    }

    func base() throws -> World {
        var w = World()
        _ = try w.apply(
            ops([
                ["op": "insert", "parent": "app", "node": ["id": "ad", "kind": "appDelegate"]],
                [
                    "op": "insert", "parent": "app",
                    "node": [
                        "id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true,
                        "children": [
                            [
                                "id": "RVC", "kind": "viewController",
                                "children": [
                                    [
                                        "id": "R", "kind": "view", "frame": [0, 0, 400, 800],
                                        "children": [
                                            ["id": "A", "kind": "view", "frame": [0, 0, 300, 300]],
                                            [
                                                "id": "B", "kind": "control", "class": "UIButton",
                                                "frame": [10, 10, 50, 20]
                                            ]
                                        ]
                                    ]
                                ]
                            ]
                        ]
                    ]
                ]
            ]))
        return w
    }

    func expectError(
        _ name: ErrorName, _ world: World, _ list: [JSON], field: String? = nil, opIndex: Int? = nil,
        ifRevision: Int? = nil
    ) throws {
        var copy = world
        do {
            let parsed = try ops(list)
            _ = try asClient { () throws(CoreError) in try copy.apply(parsed, ifRevision: ifRevision) }
            Issue.record("expected \(name.rawValue)")
        } catch let error as RPCError {
            #expect(error.name == name, "\(error)")
            if let field { #expect(error.detail("field") == .string(field), "\(error)") }
            if let opIndex { #expect(error.detail("opIndex") == JSON(opIndex), "\(error)") }
        }
        #expect(copy == world, "a failed batch changed the world")
    }

    @Test func insertsNestedNodesWithDefaultsAndBumpsTheRevision() throws {
        let w = try base()
        #expect(w.revision == 2)
        #expect(w["R"]?.children == ["A", "B"])
        #expect(w["RVC"]?.parent == "W")
        #expect(w["B"]?.enabled == true)
        #expect(w["B"]?.className == "UIButton")
        #expect(w["A"]?.alpha == 1)
        #expect(w["A"]?.revision == 2)
        #expect(w.keyWindow == "W")
        #expect(w["R"]?.depth == 3)
    }

    @Test func unknownFieldIsNamed() throws {
        try expectError(
            .invalidNode, try base(), [["op": "update", "id": "A", "set": ["hiden": true]]], field: "ops[0].set.hiden",
            opIndex: 0)
        try expectError(
            .invalidNode, try base(),
            [["op": "insert", "parent": "R", "node": ["id": "X", "kind": "view", "hiden": true]]],
            field: "ops[0].node.hiden")
    }

    @Test func wrongTypesAndBadValuesAreInvalidNode() throws {
        let w = try base()
        try expectError(
            .invalidNode, w, [["op": "update", "id": "A", "set": ["hidden": "yes"]]], field: "ops[0].set.hidden")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "A", "set": ["alpha": 1.5]]], field: "ops[0].set.alpha")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "A", "set": ["frame": [0, 0, -1, 10]]]], field: "ops[0].set.frame")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "A", "set": ["frame": [0, 0, 10]]]], field: "ops[0].set.frame")
        try expectError(.invalidNode, w, [["op": "update", "id": "A", "set": ["key": true]]], field: "ops[0].set.key")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "A", "set": ["handles": ["touchesBegan": "maybe"]]]],
            field: "ops[0].set.handles.touchesBegan")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "B", "set": ["targets": [["event": "tapped", "action": "x:"]]]]],
            field: "ops[0].set.targets[0].event")
        try expectError(.invalidNode, w, [["op": "update", "id": "A", "set": ["id": "Z"]]], field: "ops[0].set.id")
        try expectError(
            .invalidNode, w, [["op": "insert", "parent": "R", "node": ["id": "X", "kind": "gadget"]]],
            field: "ops[0].node.kind")
    }

    @Test func nullResetsAFieldToItsDefault() throws {
        var w = try base()
        _ = try w.apply(ops([["op": "update", "id": "A", "set": ["alpha": 0.5, "hidden": true]]]))
        _ = try w.apply(ops([["op": "update", "id": "A", "set": ["alpha": nil]]]))
        #expect(w["A"]?.alpha == 1)
        #expect(w["A"]?.hidden == true)
    }

    @Test func aFailingOpLeavesTheWholeBatchUnapplied() throws {
        try expectError(
            .nodeNotFound, try base(),
            [
                ["op": "update", "id": "A", "set": ["hidden": true]],
                ["op": "insert", "parent": "R", "node": ["id": "N", "kind": "view"]],
                ["op": "remove", "id": "nope"]
            ], opIndex: 2)
    }

    @Test func duplicateIDsAreRefusedAcrossTheWorldAndWithinASubtree() throws {
        try expectError(
            .duplicateID, try base(), [["op": "insert", "parent": "R", "node": ["id": "A", "kind": "view"]]])
        try expectError(
            .duplicateID, try base(),
            [
                [
                    "op": "insert", "parent": "R",
                    "node": ["id": "N", "kind": "view", "children": [["id": "N", "kind": "view"]]]
                ]
            ])
    }

    @Test func movingUnderOwnDescendantIsACycle() throws {
        try expectError(.cycle, try base(), [["op": "move", "id": "R", "parent": "A"]])
        try expectError(.cycle, try base(), [["op": "move", "id": "A", "parent": "A"]])
    }

    @Test func placementRules() throws {
        let w = try base()
        try expectError(.invalidPlacement, w, [["op": "insert", "parent": "app", "node": ["id": "v", "kind": "view"]]])
        try expectError(
            .invalidPlacement, w, [["op": "insert", "parent": "app", "node": ["id": "ad2", "kind": "appDelegate"]]])
        try expectError(.invalidPlacement, w, [["op": "insert", "parent": "R", "node": ["id": "w2", "kind": "window"]]])
        try expectError(
            .invalidPlacement, w,
            [
                [
                    "op": "insert", "parent": "W",
                    "node": ["id": "vc2", "kind": "viewController", "children": [["id": "v2", "kind": "view"]]]
                ]
            ])
        try expectError(
            .invalidPlacement, w, [["op": "insert", "parent": "R", "node": ["id": "vc3", "kind": "viewController"]]])
        try expectError(.invalidPlacement, w, [["op": "insert", "parent": "RVC", "node": ["id": "v3", "kind": "view"]]])
        try expectError(.invalidPlacement, w, [["op": "remove", "id": "app"]])
        try expectError(.invalidPlacement, w, [["op": "insert", "parent": "ad", "node": ["id": "v4", "kind": "view"]]])
        try expectError(
            .invalidPlacement, w, [["op": "insert", "parent": nil, "node": ["id": "ad3", "kind": "appDelegate"]]])
    }

    @Test func aViewControllerAndItsRootViewMayArriveInSeparateOpsOfOneBatch() throws {
        var w = try base()
        _ = try w.apply(
            ops([
                ["op": "insert", "parent": "R", "node": ["id": "child", "kind": "viewController"]],
                ["op": "insert", "parent": "child", "node": ["id": "CV", "kind": "view"]]
            ]))
        #expect(w["child"]?.children == ["CV"])
    }

    @Test func aPresentedControllerSitsUnderAWindowAndNamesItsPresenter() throws {
        var w = try base()
        _ = try w.apply(
            ops([
                [
                    "op": "insert", "parent": "W",
                    "node": [
                        "id": "PVC", "kind": "viewController", "presentedBy": "RVC",
                        "children": [["id": "PV", "kind": "view"]]
                    ]
                ]
            ]))
        #expect(w["PVC"]?.presentedBy == "RVC")
        try expectError(
            .invalidNode, w, [["op": "update", "id": "PVC", "set": ["presentedBy": "R"]]], field: "presentedBy")
    }

    @Test func detachedSubtreesCanBeCreatedAndMovedIntoTheHierarchy() throws {
        var w = try base()
        _ = try w.apply(
            ops([
                [
                    "op": "insert", "parent": nil,
                    "node": ["id": "D", "kind": "view", "children": [["id": "D1", "kind": "textField"]]]
                ]
            ]))
        #expect(w.detachedRoots == ["D"])
        #expect(!w.isAttached("D1"))
        #expect(w.window(of: "D1") == nil)
        _ = try w.apply(ops([["op": "move", "id": "D", "parent": "R", "index": 0]]))
        #expect(w.detachedRoots.isEmpty)
        #expect(w["R"]?.children == ["D", "A", "B"])
        #expect(w.window(of: "D1") == "W")
        #expect(w["D1"]?.depth == 5)
    }

    @Test func removeTakesTheWholeSubtree() throws {
        var w = try base()
        let batch = try w.apply(
            ops([
                ["op": "remove", "id": "R"],
                ["op": "insert", "parent": "RVC", "node": ["id": "R2", "kind": "view"]]
            ]))
        #expect(Set(batch.removed) == ["R", "A", "B"])
        #expect(w["A"] == nil)
        #expect(w["RVC"]?.children == ["R2"])
    }

    @Test func ifRevisionMismatchIsAConflictNamingTheCurrentRevision() throws {
        let w = try base()
        var copy = w
        do {
            let parsed = try ops([["op": "remove", "id": "A"]])
            _ = try asClient { () throws(CoreError) in try copy.apply(parsed, ifRevision: 1) }
            Issue.record("expected a conflict")
        } catch let error as RPCError {
            #expect(error.name == .revisionConflict)
            #expect(error.detail("revision") == 2)
        }
        #expect(copy == w)
    }

    @Test func ifNodeRevisionGuardsOneNodeOnly() throws {
        var w = try base()
        _ = try w.apply(ops([["op": "update", "id": "A", "set": ["hidden": true]]]))  // A now at 3
        _ = try w.apply(ops([["op": "update", "id": "B", "set": ["enabled": false], "ifNodeRevision": 2]]))  // B untouched since 2
        try expectError(
            .revisionConflict, w, [["op": "update", "id": "A", "set": ["hidden": false], "ifNodeRevision": 2]])
    }

    @Test func atMostOneKeyWindow() throws {
        try expectError(
            .invalidNode, try base(),
            [["op": "insert", "parent": "app", "node": ["id": "W2", "kind": "window", "key": true]]], field: "key")
    }

    @Test func limitsAreLimitExceeded() throws {
        var w = World()
        do {
            let parsed = try ops([
                [
                    "op": "insert", "parent": "app",
                    "node": [
                        "id": "W", "kind": "window",
                        "children": [["id": "a", "kind": "view"], ["id": "b", "kind": "view"]]
                    ]
                ]
            ])
            _ = try asClient { () throws(CoreError) in try w.apply(parsed, limits: Limits(maxNodes: 3)) }
            Issue.record("expected LIMIT_EXCEEDED")
        } catch let error as RPCError {
            #expect(error.name == .limitExceeded)
            #expect(error.detail("limit") == "nodes")
        }
        do {
            let parsed = try ops([
                [
                    "op": "insert", "parent": "app",
                    "node": [
                        "id": "W", "kind": "window",
                        "children": [["id": "a", "kind": "view", "children": [["id": "b", "kind": "view"]]]]
                    ]
                ]
            ])
            _ = try asClient { () throws(CoreError) in try w.apply(parsed, limits: Limits(maxDepth: 2)) }
            Issue.record("expected LIMIT_EXCEEDED")
        } catch let error as RPCError {
            #expect(error.detail("limit") == "depth")
        }
        #expect(w == World())
    }

    @Test func serializedTreeLoadsBackToTheSameWorld() throws {
        let w = try base()
        let tree = try JSONCodec.decode(w.encoded())
        var loaded = World()
        try loaded.load(tree: tree)
        #expect(Set(loaded.nodes.keys) == Set(w.nodes.keys))
        #expect(loaded["R"]?.children == ["A", "B"])
        #expect(loaded["B"]?.className == "UIButton")
        // Errors in a loaded tree name their place in it, not an internal op.
        var bad = World()
        do {
            try bad.load(tree: [
                "id": "app", "kind": "application",
                "children": [["id": "W", "kind": "window", "children": [["id": "v", "kind": "view", "hiden": true]]]]
            ])
            Issue.record("loaded a tree with an unknown field")
        } catch {
            #expect(error.detail("field") == "tree.children[0].children[0].hiden")
            #expect(error.detail("opIndex") == nil)
        }
        #expect(
            try JSONCodec.decode(loaded.encoded())
                == JSONCodec.decode(w.encoded()).setting("revision", JSON(loaded.revision)))
    }
}
