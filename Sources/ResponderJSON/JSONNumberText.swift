/// A JSON number's text: where it ends and what it is worth. Shared by the parser and the plain-request reader
/// (`PlainRequest`), so that both accept the same texts and read the same values from them.
package enum JSONNumberText {
    package enum Scan {
        case number(end: Int)
        /// Not a number at all (the parser's "invalid value"), or a number cut short ("invalid number"); `at` is
        /// the offset the parser reports.
        case invalidValue(at: Int)
        case invalidNumber(at: Int)
    }

    /// Scans the number starting at `start`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inlinable @inline(__always)
    package static func scan(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Scan {
        var i = start
        let n = b.count
        if i < n, b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, isDigit(b[i]) else { return .invalidValue(at: i) }
        if b[i] == UInt8(ascii: "0") { i += 1 } else { while i < n, isDigit(b[i]) { i += 1 } }
        if i < n, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, isDigit(b[i]) else { return .invalidNumber(at: i) }
            while i < n, isDigit(b[i]) { i += 1 }
        }
        if i < n, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, isDigit(b[i]) else { return .invalidNumber(at: i) }
            while i < n, isDigit(b[i]) { i += 1 }
        }
        return .number(end: i)
    }

    /// The value of a number `scan` accepted, read as `Double` reads its text; nil only where it cannot.
    @inlinable
    package static func value(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self))
    }

    /// A number's end and value: `scan` and then `value`, except for a plain integer of up to 15 digits (a large
    /// tree's frames are mostly such), exact as a `Double` and read in one pass over its digits with no text —
    /// the same end and the same value as the two in turn.
    @inlinable @inline(__always)
    package static func read(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> (scan: Scan, value: Double?) {
        var i = start
        let n = b.count
        let negative = i < n && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        if i < n, isDigit(b[i]) {
            let digits = i
            var v: Int64 = 0
            if b[i] == UInt8(ascii: "0") {
                i += 1
            } else {
                while i < n, i - digits < 15, isDigit(b[i]) {
                    v = v &* 10 &+ Int64(b[i] &- 0x30)
                    i += 1
                }
            }
            // Plain when nothing that continues a number follows: a sixteenth digit, a fraction or an exponent.
            let next = i < n ? b[i] : 0
            if !isDigit(next), next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") {
                return (.number(end: i), negative ? (v == 0 ? -0.0 : -Double(v)) : Double(v))
            }
        }
        let scan = scan(b, from: start)
        guard case .number(let end) = scan else { return (scan, nil) }
        return (scan, value(b, start..<end))
    }

    @inlinable @inline(__always)
    package static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
}
