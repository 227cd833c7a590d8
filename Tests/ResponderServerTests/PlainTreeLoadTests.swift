import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The engine's reader takes a large tree.load's tree from the text (`PlainTree`) and the rest of
/// the request from the general reader. The world it prepares must be the one the general reader prepared, and
/// whatever it does not read must come out exactly as the general reader gives it.
@Suite struct PlainTreeLoadTests {
    static let limits = Limits()

    /// A tree of `count` views under a key window, as a client writes it.
    static func tree(_ count: Int) -> String {
        var views: [String] = []
        for i in 0..<count {
            views.append(
                #"{"id":"v\#(i)","kind":"\#(i % 3 == 0 ? "control" : "view")","frame":[\#(i % 7),\#(i / 7).5,40,30],"children":[]\#(i % 4 == 0 ? #","hidden":true"# : "")}"#
            )
        }
        return
            #"{"id":"app","kind":"application","children":[{"id":"w","kind":"window","frame":[0,0,390,844],"key":true,"children":["#
            + views.joined(separator: ",") + "]}]}"
    }

    static func body(_ tree: String, params extra: String = "", id: String = "5") -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"tree.load","params":{"tree":\#(tree)\#(extra)}}"#.utf8)
    }

    /// The prepared world's text (or the error), and the request the handler gets.
    static func outcome(_ parsed: ParsedRequest) throws -> (world: Result<[UInt8], RPCError>, id: JSON?, params: JSON) {
        guard case .request(let request, let prepared) = parsed, let prepared else {
            throw TestFailure("not a prepared request: \(parsed)")
        }
        let world = Result { () throws(RPCError) in
            let w = try prepared.take(); return w.encoded() + w.encodedDetached()
        }
        return (world, request.id, request.params)
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String; init(_ d: String) { description = d }
    }

    @Test func aTreeLoadIsPreparedFromItsTextAsTheGeneralReaderPreparesIt() throws {
        let tree = Self.tree(60)
        let detached = #","detached":[{"id":"spare","kind":"view","frame":[0,0,1,1]}],"session":"default""#
        let body = Self.body(tree, params: detached)
        let plain = try #require(ParsedRequest.preparePlain(body, limits: Self.limits, leftovers: Leftovers()))
        let (world, id, params) = try Self.outcome(plain)
        // What the general reader makes of the same tree and detached subtree.
        let document = try JSONCodec.decode(Array(tree.utf8))
        let spare = try NodeTree(wire: ["id": "spare", "kind": "view", "frame": [0, 0, 1, 1]], path: "detached[0]")
        let expected = try World.prepared(
            tree: try NodeTree(wire: document, path: "tree"), detached: [spare], limits: Self.limits)
        #expect(try world.get() == expected.encoded() + expected.encodedDetached())
        #expect(id == 5)
        #expect(params["session"] == "default" && params["detached"] == .null && params["tree"]?["id"] == "app")
    }

    @Test func whatThePlainReaderLeavesIsReadAsBefore() throws {
        // A tree it does not read (an escape in an id), and a request whose other params are refused. (Large
        // enough to be read as the engine's reader reads large requests: a short one is a plain request.)
        let escaped = Self.body(Self.tree(60).replacingOccurrences(of: #""v1""#, with: #""v\u0031x""#))
        #expect(ParsedRequest.preparePlain(escaped, limits: Self.limits, leftovers: Leftovers()) == nil)
        let general = try Self.outcome(ParsedRequest.prepare(escaped, limits: Self.limits, leftovers: Leftovers()))
        #expect(try general.world.get().count > 0)

        let refused = Self.body(Self.tree(60), params: #","ifRevision":"x""#)
        #expect(ParsedRequest.preparePlain(refused, limits: Self.limits, leftovers: Leftovers()) == nil)
        let refusal = ParsedRequest.prepare(refused, limits: Self.limits, leftovers: Leftovers())
        guard case .refused(_, let error) = refusal else {
            Issue.record("ifRevision \"x\" was not refused: \(refusal)")
            return
        }
        #expect(error.detail("field") == "ifRevision")

        // A tree the world refuses (an id twice) is read here, and refused by the world in its words.
        let twice = Self.body(Self.tree(4).replacingOccurrences(of: #""v2""#, with: #""v1""#))
        let plain = try Self.outcome(
            try #require(ParsedRequest.preparePlain(twice, limits: Self.limits, leftovers: Leftovers())))
        let document = try JSONCodec.decode(Array(Self.tree(4).replacingOccurrences(of: #""v2""#, with: #""v1""#).utf8))
        var expected: RPCError?
        let tree = try NodeTree(wire: document, path: "tree")
        do throws(CoreError) { _ = try World.prepared(tree: tree, detached: [], limits: Self.limits) } catch {
            expected = RPCError(error)
        }
        guard case .failure(let error) = plain.world else {
            Issue.record(
                "a duplicate id was prepared: expected \(String(describing: expected)); \(String(decoding: (try? plain.world.get()) ?? [], as: UTF8.self).prefix(400))"
            )
            return
        }
        #expect(error.message == expected?.message && error.detail("field") == expected?.detail("field"))
    }

    @Test func aSessionCreatedWithAWorldIsPreparedAsTheGeneralReaderPreparesIt() throws {
        let tree = Self.tree(60)
        let body = Array(
            #"{"jsonrpc":"2.0","id":"c","method":"session.create","params":{"session":"big","tree":\#(tree),"detached":[{"id":"spare","kind":"view"}]}}"#
                .utf8)
        let plain = try #require(ParsedRequest.preparePlain(body, limits: Self.limits, leftovers: Leftovers()))
        let (world, id, params) = try Self.outcome(plain)
        let spare = try NodeTree(wire: ["id": "spare", "kind": "view"], path: "detached[0]")
        let expected = try World.prepared(
            tree: try NodeTree(wire: try JSONCodec.decode(Array(tree.utf8)), path: "tree"), detached: [spare],
            limits: Self.limits)
        #expect(try world.get() == expected.encoded() + expected.encodedDetached())
        // As the general way leaves them: the handler reads neither the tree nor the detached subtrees again.
        #expect(id == "c" && params["session"] == "big" && params["tree"] == .null && params["detached"] == .null)
        // And it is what the general way prepares from the same request when the plain reader leaves it (an escape
        // in another param).
        let escaped = String(decoding: body, as: UTF8.self).replacingOccurrences(
            of: #""session":"big""#, with: #""session":"b\u0069g""#)
        #expect(ParsedRequest.preparePlain(Array(escaped.utf8), limits: Self.limits, leftovers: Leftovers()) == nil)
        let general = try Self.outcome(
            ParsedRequest.prepare(Array(escaped.utf8), limits: Self.limits, leftovers: Leftovers()))
        #expect(try general.world.get() == world.get())
        #expect(
            general.params["session"] == "big" && general.params["tree"] == .null && general.params["detached"] == .null
        )
    }
}
