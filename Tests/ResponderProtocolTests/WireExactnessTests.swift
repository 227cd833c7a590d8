import Testing

@testable import ResponderProtocol

@Suite("Ids as written, notifications, error details (Protocol 1.7)")
struct WireExactnessTests {
    @Test(
        "a numeric id's text is kept as written, the last of duplicate ids wins, other ids have no text",
        arguments: ["1e999", "12345678901234567890123", "-0.0", "1E+3", "0.10000000000000000555"])
    func numericIDText(_ id: String) throws {
        let request = try RPCRequest.parse(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#.utf8)).get()
        #expect(request.idText == Array(id.utf8))
        let later = try RPCRequest.parse(Array(#"{"id":\#(id),"jsonrpc":"2.0","method":"m","id":"s"}"#.utf8)).get()
        #expect(later.idText == nil && later.id == "s")
        // A nested "id" is not the request's.
        let nested = try RPCRequest.parse(Array(#"{"jsonrpc":"2.0","id":"x","method":"m","params":{"id":7}}"#.utf8))
            .get()
        #expect(nested.idText == nil)
    }

    @Test("a refused request keeps its numeric id's text; a notification with bad params is marked silent")
    func failures() {
        guard case .failure(let bad) = RPCRequest.parse(Array(#"{"jsonrpc":"1.0","id":1e3,"method":"m"}"#.utf8)) else {
            Issue.record(); return
        }
        #expect(bad.idText == Array("1e3".utf8) && !bad.isNotification)
        guard case .failure(let note) = RPCRequest.parse(Array(#"{"jsonrpc":"2.0","method":"m","params":[1]}"#.utf8))
        else { Issue.record(); return }
        #expect(note.isNotification)
        guard
            case .failure(let asked) = RPCRequest.parse(
                Array(#"{"jsonrpc":"2.0","id":null,"method":"m","params":[1]}"#.utf8))
        else { Issue.record(); return }
        #expect(!asked.isNotification)
    }

    @Test("field paths are 1…256 bytes: an empty member name reads \"\", a long path is cut on a character boundary")
    func fieldPaths() {
        #expect(RPCError.fieldPath("") == #""""#)
        #expect(RPCError.fieldPath("ops[0].set.") == #"ops[0].set."""#)
        #expect(RPCError.fieldPath("tree.children[0].frame") == "tree.children[0].frame")
        for filler in ["k", "é", "😀"] {
            let cut = RPCError.fieldPath(String(repeating: filler, count: 1000))
            #expect(cut.utf8.count <= RPCError.maxFieldBytes && cut.utf8.count > RPCError.maxFieldBytes - 8)
            #expect(cut.hasSuffix("…") && cut.dropLast().allSatisfy { String($0) == filler })
        }
    }

    @Test("an id that cannot be a node id is INVALID_PARAMS; conformed drops ids that are not node ids")
    func nodeIDs() {
        #expect(RPCError.noNode("card", field: "id").name == .nodeNotFound)
        for id in ["", String(repeating: "x", count: 257)] {
            let e = RPCError.noNode(id, field: "ops[1].id")
            #expect(e.name == .invalidParams && e.detail("field") == "ops[1].id" && e.detail("id") == nil)
        }
        let e = RPCError(
            .invalidNode, "m",
            [("field", ""), ("id", ""), ("parent", .string(String(repeating: "p", count: 300))), ("opIndex", 2)]
        ).conformed
        #expect(
            e.detail("field") == #""""# && e.detail("id") == nil && e.detail("parent") == nil
                && e.detail("opIndex") == 2)
    }
}
