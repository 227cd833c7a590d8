import Foundation
import ResponderJSON

/// Every string the engine reads is taken in Unicode Normalization Form C, once, where it comes in: an id
/// spelled with a precomposed "é" and one spelled "e" + U+0301 are the same id, as are "K" and the KELVIN SIGN,
/// and the engine stores and sends back the NFC spelling. The engine's own comparisons (Swift's `String`, which
/// compares by canonical equivalence) then agree with the bytes it shows: no two ids it shows differ only in
/// normalization, and what a client sends is what it reads back, in NFC.
public enum NormalizedText {
    /// `json` with every string literal in NFC: the same bytes when none needs it (no byte above 0x7F and no
    /// `\u` escape — nearly every request, told by one pass over the bytes), else each literal that changes is
    /// written again and every other byte (numbers, an id's exact text, layout) is kept. Text that is not JSON is
    /// left for the parser to refuse.
    public static func json(_ json: [UInt8]) -> [UInt8] {
        guard mayNeed(json) else { return json }
        let needed = json.withUnsafeBufferPointer { p -> Bool in
            var high: UInt8 = 0
            var escapes = false
            for i in p.indices {
                high |= p[i]
                if p[i] == backslash, i + 1 < p.count, p[i + 1] == UInt8(ascii: "u") { escapes = true }
            }
            return high >= 0x80 || escapes
        }
        guard needed else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var i = 0
        while i < json.count {
            guard json[i] == quote else {
                out.append(json[i])
                i += 1
                continue
            }
            var end = i + 1
            var special = false
            while end < json.count, json[end] != quote {
                if json[end] == backslash {
                    if end + 1 < json.count, json[end + 1] == UInt8(ascii: "u") { special = true }
                    end += 2
                } else {
                    if json[end] >= 0x80 { special = true }
                    end += 1
                }
            }
            guard end < json.count else {
                out.append(contentsOf: json[i...])
                break
            }
            let literal = json[i...end]
            if special, let written = normalizedLiteral(Array(literal)) {
                out.append(contentsOf: written)
            } else {
                out.append(contentsOf: literal)
            }
            i = end + 1
        }
        return out
    }

    /// Whether `json` holds a byte above 0x7F or a backslash, eight bytes at a time: the common request has
    /// neither, and this is all it pays.
    private static func mayNeed(_ json: [UInt8]) -> Bool {
        json.withUnsafeBytes { raw -> Bool in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var found: UInt64 = 0
            var i = 0
            while i + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A byte of `word ^ backslashes` is zero where `word` has a backslash: the classic test for a
                // zero byte sets that byte's high bit (and may set others only where one is zero).
                let x = word ^ (ones &* UInt64(backslash))
                found |= word | ((x &- ones) & ~x)
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 || raw[i] == backslash { return true }
                i += 1
            }
            return found & highs != 0
        }
    }

    /// A string in NFC.
    public static func string(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 0x80 }) else { return s }
        return s.precomposedStringWithCanonicalMapping
    }

    /// The literal written again when its string is not in NFC; nil to keep it as it is.
    private static func normalizedLiteral(_ literal: [UInt8]) -> [UInt8]? {
        guard case .string(let s)? = try? JSONCodec.decode(literal) else { return nil }
        let normal = s.precomposedStringWithCanonicalMapping
        guard !normal.unicodeScalars.elementsEqual(s.unicodeScalars) else { return nil }
        return JSONCodec.encode(.string(normal))
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
}
