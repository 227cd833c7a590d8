import Foundation
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing

@testable import ResponderServer

/// Owned sessions (Protocol/README.md 7.1) and client ids held by their connection (14.5), through the
/// request pipeline with the User-Id stamps the ZAP handler gives each connection.
@Suite("Security: owned sessions and client ids")
struct SecuritySessionTests {
    let processor: RequestProcessor

    init() throws {
        let config = EngineConfig(
            name: "sec", directory: "/nonexistent", rpcEndpoint: "inproc://rpc", eventsEndpoint: "inproc://events",
            initialWorld: Fixtures.world)
        processor = RequestProcessor(state: try EngineState(config: config, sink: CapturingSink(), now: Date()))
    }

    /// Sends `method` with `params` as client `id` on connection `peer` ("<principal> <n>"); the reply object.
    func send(_ method: String, _ params: JSON = [:], id: String = "tool", peer: String? = nil) throws -> JSON {
        let body = JSONCodec.encode(RPCRequest(id: 1, method: method, params: params).json)
        let reply = processor.process(
            body, from: Array(id.utf8), peer: peer.flatMap(PeerStamp.init(userID:)), now: Date())
        return try JSONCodec.decode(try #require(reply))
    }

    func errorName(_ reply: JSON) -> String? { reply["error"]?["data"]?["name"]?.stringValue }

    static let token = "0123456789abcdef0123456789abcdef"
    static let tree: JSON = ["id": "app", "kind": "application"]
    static let insert: JSON = [
        "ops": [["op": "insert", "parent": "app", "node": ["id": "W2", "kind": "window", "frame": [0, 0, 10, 10]]]]
    ]

    @Test("an owned session: tree changes and delete need the token; reads, dry runs and dispatch do not")
    func ownedSession() throws {
        let created = try send("session.create", ["session": "mine", "owner": .string(Self.token)])["result"]?[
            "revision"]?.intValue
        let apply = try send("tree.apply", Self.insert.setting("session", "mine"))
        #expect(errorName(apply) == "SESSION_OWNED" && apply["error"]?["code"]?.intValue == -32040)
        #expect(apply["error"]?["data"]?["field"]?.stringValue == "owner")
        let wrong = try send(
            "tree.apply",
            Self.insert.setting("session", "mine").setting("owner", .string(String(Self.token.reversed()))))
        #expect(errorName(wrong) == "SESSION_OWNED")
        #expect(errorName(try send("tree.load", ["session": "mine", "tree": Self.tree])) == "SESSION_OWNED")
        #expect(errorName(try send("session.delete", ["session": "mine"])) == "SESSION_OWNED")
        // Nothing changed: still the revision it was created with, and readable by anyone.
        let after = try send("tree.get", ["session": "mine"])["result"]?["revision"]?.intValue
        #expect(created != nil && after == created)
        #expect(try send("tree.apply", Self.insert.setting("session", "mine").setting("dryRun", true))["result"] != nil)
        #expect(try send("hitTest", ["session": "mine", "point": [1, 1]])["result"] != nil)
        let applied = try send(
            "tree.apply", Self.insert.setting("session", "mine").setting("owner", .string(Self.token)))
        #expect(applied["result"]?["revision"]?.intValue == created.map { $0 + 1 })
        #expect(errorName(try send("window.makeKey", ["session": "mine", "id": "W2"])) == "SESSION_OWNED")
        #expect(
            try send("session.delete", ["session": "mine", "owner": .string(Self.token)])["result"]?["deleted"] == true)
        // Short tokens are refused at creation, naming the field.
        let short = try send("session.create", ["session": "weak", "owner": "x"])
        #expect(errorName(short) == "INVALID_PARAMS" && short["error"]?["data"]?["field"]?.stringValue == "owner")
        // A session without an owner is open to all, as before.
        #expect(try send("tree.apply", Self.insert)["result"] != nil)
    }

    static let began: JSON = ["touches": [["touch": "t1", "phase": "began", "point": [20, 20]]]]
    static let ended: JSON = ["touches": [["touch": "t1", "phase": "ended", "point": [20, 20]]]]

    @Test("another user reusing a client id cannot take over its live touch; with none live it may")
    func otherPrincipalCannotHijack() throws {
        #expect(try send("event.touch", Self.began, id: "victim", peer: "uid:1000 1")["result"] != nil)
        let hijack = try send("event.touch", Self.ended, id: "victim", peer: "uid:1001 2")
        #expect(errorName(hijack) == "CLIENT_ID_IN_USE" && hijack["error"]?["code"]?.intValue == -32041)
        #expect(
            hijack["error"]?["data"]?["client"]?.stringValue
                == Array("victim".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(
            errorName(try send("client.hello", ["name": "victim"], id: "victim", peer: "uid:1001 2"))
                == "CLIENT_ID_IN_USE")
        // Its owner, reconnecting as the same user, ends it; then the id holds nothing and anyone may use it.
        #expect(try send("event.touch", Self.ended, id: "victim", peer: "uid:1000 3")["result"] != nil)
        #expect(try send("event.touch", Self.began, id: "victim", peer: "uid:1001 4")["result"] != nil)
    }

    @Test("a hello token: the same user on another connection must repeat it to continue the touches")
    func helloTokenProvesTheClient() throws {
        #expect(
            try send("client.hello", ["name": "ed", "token": .string(Self.token)], id: "ed", peer: "uid:1000 1")[
                "result"] != nil)
        #expect(try send("event.touch", Self.began, id: "ed", peer: "uid:1000 1")["result"] != nil)
        #expect(errorName(try send("event.touch", Self.ended, id: "ed", peer: "uid:1000 2")) == "CLIENT_ID_IN_USE")
        #expect(
            errorName(
                try send("client.hello", ["name": "ed", "token": "not-the-right-token"], id: "ed", peer: "uid:1000 2"))
                == "CLIENT_ID_IN_USE")
        #expect(
            try send("client.hello", ["name": "ed", "token": .string(Self.token)], id: "ed", peer: "uid:1000 2")[
                "result"] != nil)
        #expect(try send("event.touch", Self.ended, id: "ed", peer: "uid:1000 2")["result"] != nil)
        // The first connection no longer holds the id.
        #expect(errorName(try send("event.touch", Self.began, id: "ed", peer: "uid:1000 1")) == nil)
    }
}
