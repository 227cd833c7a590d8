import ResponderJSON
import Testing

@testable import ResponderProtocol

/// A small request is read from its bytes (`PlainRequest`) without a `JSON` tree. It may leave a body
/// to `RPCRequest.parse`, but what it reads must be what that reader reads, and it must never accept a body that
/// reader refuses (the refusal and its message belong to that reader).
@Suite struct PlainRequestTests {
    static let common: [String] = [
        #"{"jsonrpc":"2.0","id":7,"method":"hitTest","params":{"session":"default","point":[60,150]}}"#,
        #"{"jsonrpc":"2.0","id":"a-1","method":"responder.first","params":{}}"#,
        #" { "method" : "event.tap" , "params" : { "point" : [ 1.5e2 , -3 ] , "trace" : "none" } , "id" : 12345678901234567890123 , "jsonrpc" : "2.0" } "#,
        #"{"jsonrpc":"2.0","id":null,"method":"session.list"}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"tree.apply","params":{"ops":[{"op":"update","id":"b","set":{"alpha":0.5,"hidden":false}}],"x":null}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","extra":{"a":[[],{},[1,{"b":true}]]},"params":{"a":[]}}"#
    ]

    /// What `RPCRequest.parse` makes of `body`, in the terms a plain request has.
    static func general(_ body: [UInt8]) -> (id: JSON?, idText: [UInt8]?, method: String, params: [UInt8])? {
        guard case .success(let r) = RPCRequest.parse(body) else { return nil }
        return (r.id, r.idText, r.method, JSONCodec.encode(r.params))
    }

    /// The implication the engine relies on: read here means read there, the same way.
    static func agrees(_ body: [UInt8]) -> Bool {
        guard let plain = PlainRequest.read(body) else { return true }
        guard let general = general(body), let params = try? plain.params.json() else { return false }
        return general.id.map { $0 == plain.id && $0.typeName == plain.id.typeName } ?? false
            && general.idText == plain.idText && general.method == plain.method
            && general.params == JSONCodec.encode(params)
    }

    @Test(arguments: common)
    func theCommonShapeIsReadAsTheGeneralReaderReadsIt(_ text: String) throws {
        let body = Array(text.utf8)
        #expect(PlainRequest.read(body) != nil)
        #expect(Self.agrees(body))
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#,  // the general reader refuses it, naming params
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"caf\u00e9"}}"#,  // an escape
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"café"}}"#,  // not ASCII
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#,  // twice: the general reader takes the last
        #"{"jsonrpc":"2.0","method":"m"}"#,  // a notification
        #"{"jsonrpc":"2.0","id":true,"method":"m"}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"m"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m"} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":01}}"#,
        #"{}"#, "", "[]"
    ])
    func anythingElseIsLeftToTheGeneralReader(_ text: String) {
        #expect(PlainRequest.read(Array(text.utf8)) == nil)
    }

    @Test func nestingBeyondTheLimitIsLeftToTheGeneralReader() {
        func body(_ depth: Int) -> [UInt8] {
            Array(
                (#"{"jsonrpc":"2.0","id":1,"method":"m","params":"# + String(repeating: #"{"a":"#, count: depth) + "1"
                    + String(repeating: "}", count: depth) + "}").utf8)
        }
        #expect(PlainRequest.read(body(PlainRequest.maxNesting)) != nil)
        #expect(PlainRequest.read(body(PlainRequest.maxNesting + 1)) == nil)
        #expect(Self.agrees(body(PlainRequest.maxNesting)))
    }

    /// Every byte of each common body replaced by each byte that matters to JSON, deleted and doubled: the
    /// plain reader never reads a body differently from the general reader (and never accepts one it refuses).
    @Test func mutatedBodiesAreNeverReadDifferently() {
        let replacements = Array(#"{}[]",: \0-1.eE+tfnx"#.utf8) + [0x0A, 0x01, 0xC3]
        var disagreements: [String] = []
        var readPlain = 0
        for text in Self.common {
            let body = Array(text.utf8)
            for i in body.indices {
                var variants: [[UInt8]] = replacements.map {
                    var b = body; b[i] = $0; return b
                }
                var deleted = body
                deleted.remove(at: i)
                variants.append(deleted)
                variants.append(Array(body[...i]) + Array(body[i...]))
                for v in variants {
                    if PlainRequest.read(v) != nil { readPlain += 1 }
                    if !Self.agrees(v) { disagreements.append(String(decoding: v, as: UTF8.self)) }
                }
            }
        }
        let count = disagreements.count
        #expect(count == 0, "read differently, among others: \(disagreements.prefix(3))")
        // The mutations must exercise the plain reader, not only its refusals.
        #expect(readPlain > 1000)
    }

    /// Generated requests: members in any order, whitespace, extra members and nested values of every kind.
    @Test func generatedRequestsAreReadAsTheGeneralReaderReadsThem() {
        var rng = XorShift(seed: 15)
        var readPlain = 0
        for _ in 0..<3000 {
            let body = Array(Self.generatedRequest(&rng).utf8)
            if PlainRequest.read(body) != nil { readPlain += 1 }
            #expect(Self.agrees(body), "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(readPlain > 1500)
    }

    static func generatedRequest(_ rng: inout XorShift) -> String {
        func ws() -> String { ["", " ", "\n", "\t ", "\r\n"][rng.below(5)] }
        func value(_ depth: Int) -> String {
            switch rng.below(depth > 3 ? 5 : 7) {
            case 0: return ["0", "-1", "12.5", "1e3", "-0.0", "123456789012345678", "2E-2"][rng.below(7)]
            case 1: return "\"" + ["", "a", "default", "x y", "2.0"][rng.below(5)] + "\""
            case 2: return ["true", "false"][rng.below(2)]
            case 3: return "null"
            case 4: return "[" + ws() + value(depth + 1) + ws() + "," + ws() + value(depth + 1) + ws() + "]"
            case 5:
                return "[" + ws()
                    + (0..<rng.below(3)).map { _ in value(depth + 1) }.joined(separator: ws() + "," + ws()) + "]"
            default:
                return "{"
                    + (0..<rng.below(3)).map { _ in ws() + "\"k\(rng.below(3))\"" + ws() + ":" + ws() + value(depth + 1)
                    }.joined(separator: ",") + ws() + "}"
            }
        }
        var members = ["\"jsonrpc\":" + ws() + "\"2.0\"", "\"method\":" + ws() + "\"m\(rng.below(3))\""]
        switch rng.below(4) {
        case 0: members.append("\"id\":" + ws() + "\(rng.below(100))")
        case 1: members.append("\"id\":" + ws() + "\"r\(rng.below(100))\"")
        case 2: members.append("\"id\":" + ws() + "null")
        default: break
        }
        if rng.below(4) > 0 {
            members.append(
                "\"params\":" + ws()
                    + (rng.below(8) == 0
                        ? value(0) : "{" + ws() + "\"point\":[1,2]," + ws() + "\"v\":" + value(1) + "}"))
        }
        if rng.below(4) == 0 { members.append("\"other\":" + value(0)) }
        members.shuffle(using: &rng)
        return ws() + "{" + members.map { ws() + $0 + ws() }.joined(separator: ",") + "}" + ws()
    }
}

/// xorshift64*: a small seeded generator, so that a failing case can be run again.
struct XorShift: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
