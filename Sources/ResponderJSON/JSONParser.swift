/// A JSON parser with an explicit stack instead of recursion, so that a deeply nested document
/// (a 100,000-deep view tree) cannot overflow the thread's stack. Nesting beyond `maxDepth` is refused.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private let maxDepth: Int
    /// A member of the top-level object whose number is wanted as written (a JSON-RPC `id`, echoed exactly).
    private let capturedKey: String?
    /// Where that member's number is in `bytes`, when its (last) value is a number.
    private(set) var capturedNumber: Range<Int>?
    /// Strings a document repeats, taken from here rather than made again.
    private let strings: JSONStringTable?

    init(_ bytes: [UInt8], maxDepth: Int, capturingNumberOf key: String? = nil, strings: JSONStringTable? = nil) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.capturedKey = key
        self.strings = strings
    }

    /// An open container. Frames are changed in place on the stack (never copied out and back), so that
    /// appending to a container with many elements stays amortised O(1).
    private struct Frame {
        var isObject: Bool
        var elements: [JSON] = []
        var members: [(key: String, value: JSON)] = []
        var pendingKey = ""
    }

    mutating func parse() throws(JSONParseError) -> JSON {
        // A request nests two or three levels: room for them up front (growing the stack would be a reallocation).
        var stack: [Frame] = []
        stack.reserveCapacity(4)
        var value: JSON = .null
        do {
            try parse(&value, &stack)
        } catch {
            // A failure can leave finished values of any depth in the open frames and in `value` (text after a
            // complete document): free them here without recursion, as a successful parse's caller would.
            Self.release(&stack)
            JSON.release(&value)
            throw error
        }
        return value
    }

    /// Frees the open frames' finished values iteratively, innermost frame first.
    private static func release(_ stack: inout [Frame]) {
        while let top = stack.indices.last {
            var elements = JSON.array(stack[top].elements)
            var members = JSON.object(stack[top].members)
            stack.removeLast()  // the frame's buffers are now held by `elements` and `members` alone
            JSON.release(&elements)
            JSON.release(&members)
        }
    }

    /// Parses the document into `value`, with `stack` holding the open containers. Both belong to the caller
    /// so that whatever they hold when an error is thrown is freed there, iteratively.
    private mutating func parse(_ value: inout JSON, _ stack: inout [Frame]) throws(JSONParseError) {
        parsing: while true {
            skipWhitespace()
            // The text of the value read here when it is a number (for `capturedKey`).
            var numberText: Range<Int>?
            // Read one value, or open a container and continue with its first element.
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                guard stack.count < maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    i += 1
                    value = .object([])
                } else {
                    let key = try readKey()
                    // Room for a typical node's members up front: growing 1 → 2 → 4 would be three allocations.
                    var frame = Frame(isObject: true, pendingKey: key)
                    frame.members.reserveCapacity(4)
                    stack.append(frame)
                    continue parsing
                }
            case UInt8(ascii: "["):
                i += 1
                guard stack.count < maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    i += 1
                    value = .array([])
                } else {
                    var frame = Frame(isObject: false)
                    frame.elements.reserveCapacity(4)
                    stack.append(frame)
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try readString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                let start = i
                value = .number(try readNumber())
                numberText = start..<i
            }
            // Attach the finished value to its container; close containers as far as they end here.
            while !stack.isEmpty {
                skipWhitespace()
                let top = stack.count - 1
                if stack[top].isObject {
                    if top == 0, let key = capturedKey, stack[0].pendingKey == key { capturedNumber = numberText }
                    numberText = nil
                    stack[top].members.append((stack[top].pendingKey, value))
                    if peek(UInt8(ascii: ",")) {
                        i += 1
                        skipWhitespace()
                        stack[top].pendingKey = try readKey()
                        continue parsing
                    }
                    guard peek(UInt8(ascii: "}")) else { throw fail("expected ',' or '}' in object") }
                    i += 1
                    value = .object(stack.removeLast().members)
                } else {
                    numberText = nil
                    stack[top].elements.append(value)
                    if peek(UInt8(ascii: ",")) {
                        i += 1
                        continue parsing
                    }
                    guard peek(UInt8(ascii: "]")) else { throw fail("expected ',' or ']' in array") }
                    i += 1
                    value = .array(stack.removeLast().elements)
                }
            }
            break parsing
        }
        skipWhitespace()
        guard i == bytes.count else { throw fail("unexpected text after the JSON value") }
    }

    private func fail(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: i) }

    private func peek(_ byte: UInt8) -> Bool { i < bytes.count && bytes[i] == byte }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func readKey() throws(JSONParseError) -> String {
        guard peek(UInt8(ascii: "\"")) else { throw fail("expected a string key") }
        let key = try readString()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { throw fail("expected ':' after key") }
        i += 1
        return key
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        let lit = Array(literal.utf8)
        guard i + lit.count <= bytes.count, bytes[i..<(i + lit.count)].elementsEqual(lit) else {
            throw fail("invalid literal")
        }
        i += lit.count
    }

    private mutating func readNumber() throws(JSONParseError) -> Double {
        let start = i
        let (scan, value) = bytes.withUnsafeBufferPointer { JSONNumberText.read($0, from: start) }
        switch scan {
        case .number(let end):
            i = end
            guard let value else { throw fail("invalid number") }
            return value
        case .invalidValue(let at):
            i = at
            throw fail("invalid value")
        case .invalidNumber(let at):
            i = at
            throw fail("invalid number")
        }
    }

    private mutating func readString() throws(JSONParseError) -> String {
        i += 1  // opening quote
        // Most strings have no escape: made straight from the document's bytes, without a buffer between.
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
            i += 1
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            let s = bytes.withUnsafeBufferPointer { buffer -> String? in
                let run = UnsafeBufferPointer(rebasing: buffer[start..<i])
                if let known = strings?.lookup(buffer.baseAddress! + start, run.count) { return known }
                // ASCII (ids, kinds, keys: nearly every string) needs no validation; the validating initializer
                // would be much of reading a small request.
                var high: UInt8 = 0
                for b in run { high |= b }
                return high < 0x80 ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }
            i += 1
            guard let s else { throw fail("invalid UTF-8 in string") }
            return s
        }
        var out: [UInt8] = []
        var runStart = start
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<i])
                i += 1
                break
            }
            if b < 0x20 { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            out.append(contentsOf: bytes[runStart..<i])
            i += 1
            guard i < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by an escaped low one.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                    else { throw fail("unpaired surrogate") }
                    i += 2
                    let low = try readHex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("unpaired surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid unicode escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape")
            }
            runStart = i
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
        return s
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("invalid unicode escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("invalid unicode escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}
