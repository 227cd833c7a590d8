import ResponderJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A request read straight from its bytes, without a `JSON` tree: reading the envelope and the params into a
/// tree and freeing it would be a large part of a light request and of a hit test.
///
/// Only the common shape is read here: an object whose strings are plain ASCII without escapes, nesting at
/// most `maxNesting` deep, with `jsonrpc: "2.0"`, a number, string or null `id`, a `method`, and `params` an
/// object when present, none of the four twice. Anything else is nil and `RPCRequest.parse` reads it, so
/// every refusal and its message stay that reader's alone; `read` accepts only bodies that reader accepts
/// and reads the same way (`PlainRequestTests` compares the two on generated and mutated bodies).
///
/// Kept for what it saves, in the instruction guard's counts (debug build, inside request processing, the params
/// then read by the general decoder either way): `responder.first` costs 125.2k read here and 187.3k read by
/// `RPCRequest.parse`, `hitTest` 673.5k and 735.5k; in the release build (no quick reader either way, as they
/// read plain params), `responder.first` 19.9k and 25.7k, `hitTest` 34.6k and 40.0k, `event.tap` 111.5k and
/// 116.9k.
public struct PlainRequest: Sendable {
    /// `.number`, `.string` or `.null`.
    public let id: JSON
    /// A numeric id's text as sent (see `RPCRequest.idText`).
    public let idText: [UInt8]?
    public let method: String
    public let params: PlainParams

    /// Containers deeper than this leave the body to `RPCRequest.parse` (whose limit is far above it).
    static let maxNesting = 32

    public static func read(_ body: [UInt8]) -> PlainRequest? {
        body.withUnsafeBufferPointer { b -> PlainRequest? in
            var s = PlainScanner(b)
            var id: JSON?, idText: [UInt8]?, method: String?, params: Range<Int>?
            var version = false
            s.skipWhitespace()
            guard s.take(UInt8(ascii: "{")) else { return nil }
            repeat {
                s.skipWhitespace()
                guard let key = s.plainString(), s.colon() else { return nil }
                switch PlainScanner.Key(b, key) {
                case .jsonrpc:
                    guard !version, let v = s.plainString(), PlainScanner.Key(b, v) == .version else { return nil }
                    version = true
                case .id:
                    guard id == nil, let value = s.idValue() else { return nil }
                    (id, idText) = value
                case .method:
                    guard method == nil, let m = s.plainString() else { return nil }
                    method = s.string(m)
                case .params:
                    guard params == nil, s.peek(UInt8(ascii: "{")) else { return nil }
                    let start = s.i
                    guard s.skipValue() else { return nil }
                    params = start..<s.i
                default:
                    guard s.skipValue() else { return nil }
                }
                s.skipWhitespace()
            } while s.take(UInt8(ascii: ","))
            guard s.take(UInt8(ascii: "}")) else { return nil }
            s.skipWhitespace()
            guard s.atEnd, version, let id, let method else { return nil }
            return PlainRequest(id: id, idText: idText, method: method, params: PlainParams(body: body, range: params))
        }
    }
}

/// A plain request's params: its text in the body, read member by member (`forEachMember`) by a request type
/// that reads plain params itself (`QuickDecodable`), or as a `JSON` tree for the others.
public struct PlainParams: Sendable {
    let body: [UInt8]
    /// nil when the request has no params (an empty object).
    let range: Range<Int>?

    /// From the text of an object (tests and tools; the engine takes them from a `PlainRequest`). nil when it
    /// is not one `PlainRequest` would read.
    public init?(object text: [UInt8]) {
        let envelope = Array(#"{"jsonrpc":"2.0","id":0,"method":"m","params":"#.utf8) + text + Array("}".utf8)
        guard let read = PlainRequest.read(envelope) else { return nil }
        self = read.params
    }

    init(body: [UInt8], range: Range<Int>?) {
        self.body = body
        self.range = range
    }

    /// The params as a tree, for a request type read by the generic decoder. The text was checked when the
    /// request was read, so this does not fail; were it ever to, the caller answers a parse error.
    public func json() throws(JSONParseError) -> JSON {
        guard let range else { return .object([]) }
        return try JSONCodec.decode(
            Array(body[range]), maxDepth: PlainRequest.maxNesting + 1, strings: KnownStrings.table)
    }

    /// A member's value, when plain: a string, a number, two numbers (`[x, y]`) or a boolean.
    public enum Value {
        case string(String)
        case number(Double)
        case pair(Double, Double)
        case bool(Bool)
    }

    /// A member's key as its bytes in the params' text, matched against a literal in a `switch` (`case "point"`):
    /// a key made into a `String` and compared with each case's text costs more than reading the member.
    public struct Key {
        let bytes: UnsafeBufferPointer<UInt8>
        let range: Range<Int>

        public static func ~= (text: StaticString, key: Key) -> Bool { PlainScanner.same(key.bytes, key.range, text) }
    }

    /// Calls `body` with each member in order until it answers false. Answers false when `body` did, or when a
    /// value is not plain (null, an object, another array, a string with escapes), which `body` never sees.
    public func forEachMember(_ body: (Key, Value) -> Bool) -> Bool {
        guard let range else { return true }
        return self.body.withUnsafeBufferPointer { b -> Bool in
            var s = PlainScanner(UnsafeBufferPointer(rebasing: b[..<range.upperBound]))
            s.i = range.lowerBound + 1
            s.skipWhitespace()
            if s.take(UInt8(ascii: "}")) { return true }
            repeat {
                s.skipWhitespace()
                guard let key = s.plainString(), s.colon(), let value = s.plainValue(),
                    body(Key(bytes: s.b, range: key), value)
                else { return false }
                s.skipWhitespace()
            } while s.take(UInt8(ascii: ","))
            return true
        }
    }
}

/// Reads the plain parts of a JSON text in place. Every method answers nil or false at anything it does not
/// read; `skipValue` checks a whole value of any shape (but nesting) as `JSONParser` would accept it.
struct PlainScanner {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    var atEnd: Bool { i == b.count }

    func peek(_ byte: UInt8) -> Bool { i < b.count && b[i] == byte }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        i += 1
        return true
    }

    mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    /// `:` and the whitespace around it, after a key.
    mutating func colon() -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        return true
    }

    /// A string of printable ASCII without escapes: its bytes' range, the quotes left out.
    mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return start..<(i - 1)
            }
            guard c >= 0x20, c < 0x80, c != UInt8(ascii: "\\") else { return nil }
            i += 1
        }
        return nil
    }

    /// The string a `plainString` range holds (ASCII: nothing to validate).
    func string(_ range: Range<Int>) -> String {
        let run = UnsafeBufferPointer(rebasing: b[range])
        return KnownStrings.table.lookup(run.baseAddress ?? b.baseAddress!, run.count)
            ?? String(decoding: run, as: UTF8.self)
    }

    mutating func number() -> (Double, Range<Int>)? {
        let start = i
        guard case (.number(let end), let value?) = JSONNumberText.read(b, from: start) else { return nil }
        i = end
        return (value, start..<end)
    }

    /// A JSON-RPC id: a number (with its text), a plain string or null.
    mutating func idValue() -> (JSON, [UInt8]?)? {
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "\""): return plainString().map { (.string(string($0)), nil) }
        case UInt8(ascii: "n"): return literal("null") ? (.null, nil) : nil
        default: return number().map { (.number($0.0), Array(b[$0.1])) }
        }
    }

    mutating func plainValue() -> PlainParams.Value? {
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "\""): return plainString().map { .string(string($0)) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "["):
            i += 1
            skipWhitespace()
            guard let (x, _) = number() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: ",")) else { return nil }
            skipWhitespace()
            guard let (y, _) = number() else { return nil }
            skipWhitespace()
            guard take(UInt8(ascii: "]")) else { return nil }
            return .pair(x, y)
        default: return number().map { .number($0.0) }
        }
    }

    mutating func literal(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard b.count - i >= n, Self.same(b, i..<(i + n), text) else { return false }
        i += n
        return true
    }

    /// Checks one value of any kind and moves past it: the grammar `JSONParser` reads, but only plain strings
    /// and at most `PlainRequest.maxNesting` open containers (a bit each in `objects`: set for an object).
    mutating func skipValue() -> Bool {
        var objects: UInt64 = 0
        var depth = 0
        while true {
            skipWhitespace()
            guard i < b.count else { return false }
            switch b[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b[i] == UInt8(ascii: "{")
                i += 1
                skipWhitespace()
                if take(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                guard depth < PlainRequest.maxNesting else { return false }
                objects = objects << 1 | (isObject ? 1 : 0)
                depth += 1
                if isObject { guard plainString() != nil, colon() else { return false } }
                continue
            case UInt8(ascii: "\""): guard plainString() != nil else { return false }
            case UInt8(ascii: "t"): guard literal("true") else { return false }
            case UInt8(ascii: "f"): guard literal("false") else { return false }
            case UInt8(ascii: "n"): guard literal("null") else { return false }
            default: guard number() != nil else { return false }
            }
            // A value ended: close the containers that end here, or go on to the next element.
            while depth > 0 {
                skipWhitespace()
                let inObject = objects & 1 == 1
                if take(UInt8(ascii: ",")) {
                    if inObject {
                        skipWhitespace()
                        guard plainString() != nil, colon() else { return false }
                    }
                    break
                }
                guard take(inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                objects >>= 1
                depth -= 1
            }
            if depth == 0 { return true }
        }
    }

    /// Whether the bytes in `range` are `text`'s.
    static func same(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount
            && (range.isEmpty || memcmp(b.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0)
    }

    /// The envelope's keys and the JSON-RPC version, told apart by their bytes.
    enum Key {
        case jsonrpc, id, method, params, version, other

        init(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            func isText(_ text: StaticString) -> Bool { PlainScanner.same(b, range, text) }
            switch range.count {
            case 2: self = isText("id") ? .id : .other
            case 3: self = isText("2.0") ? .version : .other
            case 6: self = isText("method") ? .method : isText("params") ? .params : .other
            case 7: self = isText("jsonrpc") ? .jsonrpc : .other
            default: self = .other
            }
        }
    }
}
