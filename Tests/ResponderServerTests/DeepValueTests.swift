import Foundation
import ResponderClient
import ResponderCore
import ResponderJSON
import ResponderProtocol
import ResponderTestBasics
import Testing

@testable import ResponderServer

/// Deeply nested values end their life without recursion wherever they die: in the engine (whose thread has
/// the default 8 MiB stack, where freeing 300,000 levels recursively would need about 50 MiB) and in the engine's
/// configuration. The CLI's side is `DeepValueCLITests` (ResponderCLITests).
@Suite struct DeepValueTests {
    /// JSON nested `depth` levels: arrays, or objects when `objects`.
    static func nested(_ depth: Int, objects: Bool = false) -> String {
        objects
            ? String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            : String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// A chain of `depth` views, `<prefix>0` on top, as node text (each level nests twice in JSON).
    static func deepNodes(_ prefix: String, _ depth: Int) -> String {
        var text = ""
        for i in 0..<depth { text += #"{"id":"\#(prefix)\#(i)","kind":"view","frame":[0,0,100,100],"children":["# }
        return text.dropLast(#","children":["#.count) + "}" + String(repeating: "]}", count: depth - 1)
    }

    /// A world file: a window holding a chain of `depth` views.
    static func deepWorld(_ depth: Int) -> String {
        #"{"tree":{"id":"app","kind":"application","children":[{"id":"W","kind":"window","frame":[0,0,100,100],"key":true,"children":["#
            + deepNodes("v", depth) + "]}]}}"
    }

    static func request(_ id: Int?, _ method: String, params: String) -> String {
        #"{"jsonrpc":"2.0","# + (id.map { #""id":\#($0),"# } ?? "") + #""method":"\#(method)","params":\#(params)}"#
    }

    @Test(.tags(.slow)) func slowRequestsCarryingDeepValuesAreAnsweredAndFreedWhateverHappensToThem() throws {
        let t = try TestEngine()
        defer { t.stop() }
        let deep = Self.nested(300_000)
        let dealer = try RawDealer(address: try t.address)
        func reply(_ body: String) throws -> String {
            try dealer.send(body)
            return try dealer.receive().map { String(decoding: $0, as: UTF8.self) } ?? "(no reply)"
        }
        let cases: [(body: String, answer: String)] = [
            (deep, "INVALID_REQUEST"),  // not an object
            (Self.request(1, "engine.info", params: deep), "INVALID_PARAMS"),  // params not an object
            (Self.request(2, "engine.info", params: #"{"x":"# + deep + "}"), "INVALID_PARAMS"),  // an unknown param
            (
                Self.request(3, "no.such", params: #"{"x":"# + Self.nested(300_000, objects: true) + "}"),
                "METHOD_NOT_FOUND"
            ),
            (Self.request(4, "engine.info", params: "{}") + deep, "PARSE_ERROR"),  // text after the request
            (#"{"jsonrpc":"2.0","id":5,"method":"engine.info","params":{"x":"# + deep, "PARSE_ERROR"),  // cut short
            (#"{"jsonrpc":"2.0","junk":"# + deep + #","id":6,"method":"engine.info","params":{}}"#, #""protocol""#)
        ]
        for (body, answer) in cases {
            let text = try reply(body)
            #expect(text.contains(answer), "\(body.prefix(60))… → \(text.prefix(300))")
        }
        // A notification gets no reply, but its params are freed all the same.
        try dealer.send(Self.request(nil, "engine.info", params: #"{"x":"# + deep + "}"))
        #expect(try reply(Self.request(7, "engine.info", params: "{}")).contains(#""id":7"#))
    }

    @Test func aDeepValueInsideAGestureRecognizerIsRejectedByNameAndFreed() throws {
        let t = try TestEngine(world: Fixtures.world)
        defer { t.stop() }
        let dealer = try RawDealer(address: try t.address)
        func reply(_ id: Int, _ method: String, _ params: String) throws -> String {
            try dealer.send(Self.request(id, method, params: params))
            return try dealer.receive().map { String(decoding: $0, as: UTF8.self) } ?? "(no reply)"
        }
        // Recognizers are typed (G1–G11): a member they do not have is INVALID_NODE naming it, however deep its value.
        let recognizers = #"[{"id":"g","kind":"tap","deep":"# + Self.nested(300_000) + "}]"
        let insert =
            #"{"ops":[{"op":"insert","parent":"R","node":{"id":"G","kind":"view","gestureRecognizers":"# + recognizers
            + "}}]}"
        let rejected = try reply(1, "tree.apply", insert)
        #expect(rejected.contains(#""INVALID_NODE""#) && rejected.contains(#"ops[0].node.gestureRecognizers[0].deep"#))
        #expect(try reply(2, "tree.get", #"{"id":"G"}"#).contains(#""NODE_NOT_FOUND""#))
        #expect(try reply(3, "engine.info", "{}").contains(#""protocol""#))
    }

    @Test(.tags(.slow)) func slowADeepInitialWorldIsLoadedAndFreedIterativelyByItsConfiguration() throws {
        let depth = 100_000
        let text = Self.deepWorld(depth)
        let t = try TestEngine(world: try JSONCodec.decode(text))
        defer { t.stop() }
        #expect(try t.connect().call("session.list")["sessions"]?.arrayValue?.first?["nodes"] == JSON(depth + 2))
        // The configuration holds the world for as long as any copy of it lives (an engine keeps one) and frees
        // it iteratively after the last: here on a 512 KiB stack, where 200,000 levels freed recursively crash.
        let outcome = Self.onSmallStack { () throws -> Bool in
            var config = EngineConfig(name: "x", directory: "/tmp/unused", initialWorld: try JSONCodec.decode(text))
            let copy = config
            config.initialWorld = nil  // a copy changes alone
            return config.initialWorld == nil && copy.initialWorld?["tree"]?["id"] == "app"
        }
        #expect(outcome == .success(true))
    }

    /// Runs `body` on a thread with a 512 KiB stack and waits for it.
    static func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> Result<T, SmallStackError> {
        let result = LockedBox<Result<T, SmallStackError>>(.failure(SmallStackError(description: "did not run")))
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { result.set(.success(try body())) } catch {
                result.set(.failure(SmallStackError(description: "\(error)")))
            }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        return result.get()
    }
}

struct SmallStackError: Error, Equatable, CustomStringConvertible {
    var description: String
}

final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func set(_ newValue: T) { lock.withLock { value = newValue } }
    func get() -> T { lock.withLock { value } }
}
