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

    /// The value of a number `scan` accepted; nil only where `Double` cannot read it.
    @inlinable @inline(__always)
    package static func value(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        // A plain integer of up to 15 digits is exact as a Double: read it without text (most numbers of a
        // large tree are frames).
        var digits = range.lowerBound
        let negative = b[digits] == UInt8(ascii: "-")
        if negative { digits += 1 }
        if range.upperBound - digits <= 15 {
            var n: Int64 = 0
            var plain = true
            for j in digits..<range.upperBound {
                let d = b[j] &- 0x30
                guard d < 10 else {
                    plain = false
                    break
                }
                n = n * 10 + Int64(d)
            }
            if plain { return negative ? (n == 0 ? -0.0 : -Double(n)) : Double(n) }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self))
    }

    /// `scan` and then `value`, in one pass over the digits for a plain integer of up to 15 of them (a large
    /// tree's frames are mostly such): the same end and the same value as the two in turn, which read every
    /// other number.
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
