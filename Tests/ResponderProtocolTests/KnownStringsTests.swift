import ResponderJSON
import Testing

@testable import ResponderProtocol

/// The parser takes a known string when its bytes match one: a lookup must give exactly the string
/// whose bytes were read, never a near one — the table compares two words and a length, not the bytes.
@Suite struct KnownStringsTests {
    private func lookup(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { KnownStrings.table.lookup($0.baseAddress!, $0.count) }
    }

    @Test func everyWordIsFoundAsItself() {
        let words = KnownStrings.words.filter { $0.utf8.count <= 16 }
        #expect(words.count > 60)
        for word in words { #expect(lookup(Array(word.utf8)) == word, "\(word)") }
        #expect(lookup(Array("jsonrpc".utf8)) == "jsonrpc")
        #expect(lookup(Array("children".utf8)) == "children")
    }

    @Test func aStringWithOtherBytesIsNeverTakenForAWord() {
        var state: UInt64 = 0xC0FFEE
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let words = KnownStrings.words.filter { $0.utf8.count <= 16 }
        var found = 0
        for word in words {
            let bytes = Array(word.utf8)
            // Every byte changed in turn, a byte added at either end, one removed.
            for i in bytes.indices {
                var changed = bytes
                changed[i] = UInt8(truncatingIfNeeded: Int(changed[i]) + 1 + Int(next() % 200))
                if let s = lookup(changed) { #expect(Array(s.utf8) == changed, "\(word) → \(s)") }
            }
            for more in [
                [UInt8(ascii: "x")] + bytes, bytes + [UInt8(ascii: "x")], Array(bytes.dropLast()),
                Array(bytes.dropFirst())
            ] where !more.isEmpty {
                if let s = lookup(more) {
                    #expect(Array(s.utf8) == more, "\(word) → \(s)")
                    found += 1
                }
            }
        }
        for _ in 0..<20_000 {
            let n = 1 + Int(next() % 17)
            let bytes = (0..<n).map { _ in UInt8(97 + next() % 26) }
            if let s = lookup(bytes) { #expect(Array(s.utf8) == bytes) }
        }
        #expect(
            lookup(Array(String(repeating: "a", count: 17).utf8)) == nil, "longer than sixteen bytes: never looked up")
    }

    @Test func parsedDocumentsAreTheSameWithKnownAndUnknownStrings() throws {
        let text =
            #"{"jsonrpc":"2.0","id":7,"method":"hitTest","params":{"point":[1,2],"session":"demo","trace":"none","sessionX":"é","kind":"view"}}"#
        let json = try JSONCodec.decode(Array(text.utf8))
        #expect(json["method"] == "hitTest")
        #expect(json["params"]?["session"] == "demo")
        #expect(json["params"]?["sessionX"] == "é")
        #expect(json["params"]?["kind"] == "view")
        #expect(JSONCodec.encode(json) == Array(text.utf8))
    }
}
