import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// A large tree.load whose nodes each list their `children` last is placed in its world as its text is read
/// (`StreamedLoad`). The world must be the one the node list makes, and whatever the stream cannot place must be
/// read again as a node list, refused in that reader's words.
@Suite struct StreamedLoadTests {
    static let limits = Limits()

    /// A tree of `count` views under a key window, each node's `children` last.
    static func tree(_ count: Int) -> String {
        var views: [String] = []
        for i in 0..<count {
            // A node's revision, as `tree.get` writes it, is read as the node list reads it.
            let hidden = i % 4 == 0 ? #","hidden":true"# : i % 6 == 1 ? #","revision":7"# : ""
            let inner = i % 5 == 0 ? #"{"id":"in\#(i)","kind":"view","frame":[1,2,3,4]}"# : ""
            views.append(
                #"{"id":"v\#(i)","kind":"\#(i % 3 == 0 ? "control" : "view")","frame":[\#(i % 7),\#(i / 7).5,40,30]\#(hidden),"children":[\#(inner)]}"#
            )
        }
        return
            #"{"id":"app","kind":"application","children":[{"id":"w","kind":"window","frame":[0,0,390,844],"key":true,"children":["#
            + views.joined(separator: ",") + "]}]}"
    }

    static let detached = #","detached":[{"id":"spare","kind":"view","frame":[0,0,1,1]}]"#

    static func body(_ tree: String, method: String = "tree.load", params extra: String = detached) -> [UInt8] {
        Array(
            #"{"jsonrpc":"2.0","id":5,"method":"\#(method)","params":{"session":"default","tree":\#(tree)\#(extra)}}"#
                .utf8)
    }

    /// The world the node list prepares from the same tree and detached subtree, or its refusal.
    static func expected(_ tree: String, limits: Limits = limits) throws -> Result<[UInt8], RPCError> {
        let document = try JSONCodec.decode(Array(tree.utf8))
        let spare = try NodeTree(wire: ["id": "spare", "kind": "view", "frame": [0, 0, 1, 1]], path: "detached[0]")
        return Result { () throws(RPCError) in
            let root = try NodeTree(wire: document, path: "tree")
            let w = try core { () throws(CoreError) in try World.prepared(tree: root, detached: [spare], limits: limits)
            }
            return w.encoded() + w.encodedDetached()
        }
    }

    /// The prepared world's text, or its refusal (as `PlainTreeLoadTests` reads a prepared request).
    static func world(_ parsed: ParsedRequest?) throws -> Result<[UInt8], RPCError> {
        try PlainTreeLoadTests.outcome(try #require(parsed)).world
    }

    @Test(arguments: ["tree.load", "session.create"])
    func aTreeWithChildrenLastIsPlacedAsItIsRead(method: String) throws {
        let tree = Self.tree(80)
        var tried = false
        let streamed = ParsedRequest.prepareStreamed(
            Self.body(tree, method: method), limits: Self.limits, leftovers: Leftovers(), tried: &tried)
        #expect(tried)
        let (world, id, params) = try PlainTreeLoadTests.outcome(try #require(streamed))
        #expect(try world.get() == Self.expected(tree).get())
        #expect(id == 5 && params["session"] == "default" && params["detached"] == .null)
        #expect(params["tree"] == (method == "tree.load" ? ["id": "app", "kind": "application"] : .null))
    }

    @Test func aMemberAfterChildrenIsReadAsANodeList() throws {
        let tree = Self.tree(40).replacingOccurrences(
            of: #""frame":[1,2,3,4]}"#, with: #""children":[],"frame":[1,2,3,4]}"#)
        let body = Self.body(tree)
        var tried = false
        #expect(ParsedRequest.prepareStreamed(body, limits: Self.limits, leftovers: Leftovers(), tried: &tried) == nil)
        #expect(tried)
        let plain = try Self.world(ParsedRequest.preparePlain(body, limits: Self.limits, leftovers: Leftovers()))
        #expect(try plain.get() == Self.expected(tree).get())
    }

    /// Trees the world refuses: the stream places nothing of them, and the node list words the refusal.
    static let refused: [(String, @Sendable (String) -> String, Limits)] = [
        ("an id twice", { $0.replacingOccurrences(of: #""id":"v7""#, with: #""id":"v3""#) }, limits),
        (
            "the tree's id again in a detached subtree",
            { $0.replacingOccurrences(of: #""id":"v9""#, with: #""id":"spare""#) }, limits
        ),
        (
            "a window under a view",
            { $0.replacingOccurrences(of: #""id":"in10","kind":"view""#, with: #""id":"in10","kind":"window""#) },
            limits
        ),
        (
            "a root that is not the application",
            { $0.replacingOccurrences(of: #""kind":"application""#, with: #""kind":"view""#) }, limits
        ),
        ("an unknown field", { $0.replacingOccurrences(of: #""id":"v2","#, with: #""id":"v2","colour":3,"#) }, limits),
        ("more nodes than the limit", { $0 }, Limits(maxNodes: 50)),
        ("deeper than the limit", { $0 }, Limits(maxDepth: 2))
    ]

    @Test(arguments: refused.indices)
    func whatTheWorldRefusesIsWordedByTheNodeList(index: Int) throws {
        let (name, change, limits) = Self.refused[index]
        let tree = change(Self.tree(40))
        #expect(tree != Self.tree(40) || limits != Self.limits, "\(name): the change changed nothing")
        let body = Self.body(tree)
        var tried = false
        #expect(
            ParsedRequest.prepareStreamed(body, limits: limits, leftovers: Leftovers(), tried: &tried) == nil, "\(name)"
        )
        #expect(tried, "\(name)")
        let expected = try Self.expected(tree, limits: limits)
        guard case .failure(let reason) = expected else {
            Issue.record("\(name): the node list accepts it")
            return
        }
        let prepared = try Self.world(
            ParsedRequest.preparePlain(body, limits: limits, leftovers: Leftovers())
                ?? ParsedRequest.prepare(body, limits: limits, leftovers: Leftovers()))
        guard case .failure(let error) = prepared else {
            Issue.record("\(name): prepared a world")
            return
        }
        #expect(error.message == reason.message && error.detail("field") == reason.detail("field"), "\(name)")
    }
}
