import Testing

@testable import ResponderJSON

/// `JSONNumberText.read` (one pass for a plain integer) against `scan` then `value` (`Double` reading the text),
/// which it must equal.
@Suite struct JSONNumberTextTests {
    static func twoSteps(_ text: String) -> (end: Int?, value: Double?, bits: UInt64?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            guard case .number(let end) = JSONNumberText.scan(b, from: 0) else { return (nil, nil, nil) }
            let v = JSONNumberText.value(b, 0..<end)
            return (end, v, v?.bitPattern)
        }
    }

    static func oneStep(_ text: String) -> (end: Int?, value: Double?, bits: UInt64?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            let (scan, v) = JSONNumberText.read(b, from: 0)
            guard case .number(let end) = scan else { return (nil, nil, nil) }
            return (end, v, v?.bitPattern)
        }
    }

    static let texts = [
        "0", "-0", "7", "-7", "10", "123456789012345", "-123456789012345", "1234567890123456", "99999999999999999999",
        "01", "-01", "0.5", "1.25", "-3.0", "1e3", "1E3", "2e-3", "0e0", "12.", "1e", "-", "-a", "", "x", "1,", "1]",
        "100000,", "1000000]", "5 ", "-0.0", "123456789012345.5", "123456789012345e1", "1.7976931348623157e309"
    ]

    @Test func plainIntegersAndEveryOtherNumberReadAsScanThenValue() {
        for text in Self.texts {
            let one = Self.oneStep(text), two = Self.twoSteps(text)
            #expect(one.end == two.end, "end of \(text)")
            #expect(one.bits == two.bits, "value of \(text)")
        }
    }

    @Test func randomNumberTextsReadAsScanThenValue() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-+.eE ,]")
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...20, using: &rng)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
            let one = Self.oneStep(text), two = Self.twoSteps(text)
            #expect(one.end == two.end && one.bits == two.bits, "\(text)")
        }
    }
}
