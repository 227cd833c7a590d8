import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The server's edge: a core error as the JSON-RPC `error` member a client reads. Each case is refused by the
/// real core on the demo world, and its `error` member must be the bytes the engine answers with: Protocol/README
/// section 11 (the failing batch), Tests/python/test_errors.py, test_gestures.py and test_first_hour.py.
@Suite struct CoreErrorReplyTests {
    static func demo() throws -> SessionState {
        let path = #filePath.replacingOccurrences(
            of: "Tests/ResponderServerTests/CoreErrorReplyTests.swift", with: "Protocol/examples/demo-world.json")
        let file = try WireDecoder.decode(
            WorldFile.self, from: try JSONCodec.decode(String(contentsOfFile: path, encoding: .utf8)))
        var s = SessionState()
        _ = try s.load(tree: file.tree, detached: file.detached ?? [], limits: .default)
        return s
    }

    /// The core's error for the batch `ops`, mapped at the edge, as the `error` member's text.
    static func applied(_ ops: [JSON]) throws -> (CoreError?, String) {
        var s = try Self.demo()
        let parsed = try ops.enumerated().map { try GuardedOp(wire: $0.element, index: $0.offset) }
        do throws(CoreError) {
            _ = try s.apply(parsed, ifRevision: nil, limits: .default)
        } catch {
            return (error, String(decoding: JSONCodec.encode(RPCError(error).json), as: UTF8.self))
        }
        return (nil, "")
    }

    @Test("a failing batch names its op and the node; the field is given from the top of the params")
    func batchErrors() throws {
        // Protocol/README section 11, byte for byte.
        var (error, text) = try Self.applied([
            ["op": "update", "id": "title", "set": ["hidden": false]], ["op": "move", "id": "card", "parent": "button"]
        ])
        #expect(error == .inOp(1, .cycle("card", parent: "button")))
        #expect(
            text
                == #"{"code":-32005,"message":"cannot move \"card\" under its own descendant \"button\"","data":{"name":"CYCLE","id":"card","parent":"button","opIndex":1}}"#
        )
        // test_errors.py test_node_not_found: the op's field under ops[1].
        (error, text) = try Self.applied([
            ["op": "update", "id": "title", "set": ["alpha": 0.5]],
            ["op": "insert", "parent": "ghost", "node": ["id": "n", "kind": "view"]]
        ])
        #expect(error == .inOp(1, .noNode("ghost", field: "parent")))
        #expect(
            text
                == #"{"code":-32003,"message":"no node \"ghost\"","data":{"name":"NODE_NOT_FOUND","id":"ghost","opIndex":1,"field":"ops[1].parent"}}"#
        )
        // test_errors.py test_duplicate_id: a node tree's path starts at ops[0] already and is kept.
        (error, text) = try Self.applied([
            ["op": "insert", "parent": "card", "node": ["id": "button", "kind": "control"]]
        ])
        #expect(error == .inOp(0, .duplicateID("button", field: "ops[0].node.id")))
        #expect(
            text
                == #"{"code":-32004,"message":"a node with id \"button\" already exists","data":{"name":"DUPLICATE_ID","id":"button","field":"ops[0].node.id","opIndex":0}}"#
        )
        // An id that cannot be a node id is a bad param, not a missing node.
        (_, text) = try Self.applied([["op": "update", "id": "", "set": [:]]])
        #expect(
            text
                == #"{"code":-32602,"message":"id: a node id is 1…256 bytes, got 0","data":{"name":"INVALID_PARAMS","opIndex":0,"field":"ops[0].id"}}"#
        )
        // A rule checked when the batch completes names the op, its field stays the node's.
        (error, text) = try Self.applied([
            ["op": "insert", "parent": "app", "node": ["id": "W2", "kind": "window", "key": true]]
        ])
        #expect(error == .afterOp(0, .severalKeyWindows(keys: ["window", "W2"])))
        #expect(
            text
                == #"{"code":-32006,"message":"at most one window can be key (window, W2)","data":{"name":"INVALID_NODE","field":"key","id":"W2","opIndex":0}}"#
        )
        // test_gestures.py: a reference to no recognizer, at the path the batch wrote it under.
        (_, text) = try Self.applied([
            [
                "op": "update", "id": "card",
                "set": ["gestureRecognizers": [["id": "a", "kind": "tap", "requireToFail": ["zz"]]]]
            ]
        ])
        #expect(
            text
                == #"{"code":-32006,"message":"ops[0].set.gestureRecognizers[0].requireToFail[0]: names no recognizer \"zz\"","data":{"name":"INVALID_NODE","field":"ops[0].set.gestureRecognizers[0].requireToFail[0]","id":"card","recognizer":"zz","opIndex":0}}"#
        )
    }

    @Test("a document's errors keep its paths and name no op")
    func loadErrors() throws {
        var s = try Self.demo()
        do throws(CoreError) {
            _ = try s.load(
                tree: NodeTree(root: NodeSpec(id: "app", kind: .application), path: "tree"),
                detached: [
                    NodeTree(root: NodeSpec(id: "d", kind: .view), path: "detached[0]"),
                    NodeTree(root: NodeSpec(id: "d", kind: .view), path: "detached[1]")
                ], limits: .default)
            Issue.record("a duplicate id was loaded")
        } catch {
            let text = String(decoding: JSONCodec.encode(RPCError(error).json), as: UTF8.self)
            #expect(
                text
                    == #"{"code":-32004,"message":"a node with id \"d\" already exists","data":{"name":"DUPLICATE_ID","id":"d","field":"detached[1].id"}}"#
            )
        }
    }

    @Test("a time before the clock: a touch's is named by its index, a tap's is its own field")
    func clockErrors() throws {
        var s = try Self.demo()
        _ = try s.advanceClock(to: 1, by: nil)
        func text(_ body: (inout SessionState) throws(CoreError) -> Void) -> String {
            var copy = s
            do throws(CoreError) { try body(&copy) } catch {
                return String(decoding: JSONCodec.encode(RPCError(error).json), as: UTF8.self)
            }
            return ""
        }
        // test_errors.py: event.touch's field touches[0].time.
        #expect(
            text { (s) throws(CoreError) in
                _ = try s.touch([TouchInput(touch: 1, phase: .began, point: Point(1, 1), time: 0.5)], client: "c")
            }
                == #"{"code":-32602,"message":"touches[0].time: 0.5 is before the session clock (1.0); time never goes back","data":{"name":"INVALID_PARAMS","field":"touches[0].time","clock":1,"index":0}}"#
        )
        #expect(
            text { (s) throws(CoreError) in _ = try s.tap(at: Point(1, 1), time: 0.5, client: "c") }
                == #"{"code":-32602,"message":"time: 0.5 is before the session clock (1.0); time never goes back","data":{"name":"INVALID_PARAMS","clock":1,"field":"time"}}"#
        )
        #expect(
            text { (s) throws(CoreError) in _ = try s.advanceClock(to: 0.5, by: nil) }
                == #"{"code":-32602,"message":"to: 0.5 is before the session clock (1.0)","data":{"name":"INVALID_PARAMS","field":"to","clock":1}}"#
        )
        #expect(
            text { (s) throws(CoreError) in _ = try s.firstResponder(window: "card") }
                == #"{"code":-32015,"message":"\"card\" is a view, not a window","data":{"name":"WRONG_KIND","id":"card","field":"window","kind":"view"}}"#
        )
        #expect(
            text { (s) throws(CoreError) in
                _ = try s.touch([TouchInput(touch: "zz", phase: .moved, point: Point(1, 1))], client: "c")
            }
                == #"{"code":-32012,"message":"no live touch \"zz\"","data":{"name":"TOUCH_NOT_FOUND","touch":"zz","index":0}}"#
        )
    }
}
