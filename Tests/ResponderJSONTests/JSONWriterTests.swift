import Testing

@testable import ResponderJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer stores through pointers into room made ahead and keeps its commas in bits: these pin the
/// text at the edges that this could get wrong — past its 64 bits of nesting, across growth, escapes, numbers.
@Suite struct JSONWriterTests {
    private func text(_ w: inout JSONWriter) -> String { String(decoding: w.takeBytes(), as: UTF8.self) }

    @Test func commasStayRightFarPastSixtyFourLevels() {
        // Each level holds a number, an inner array, then (after the inner one closes) another number: the
        // comma after a closed container depends on the level's bit surviving 200 levels below it.
        let depth = 200
        var w = JSONWriter(reservingCapacity: 16)
        for i in 0..<depth {
            w.beginArray()
            w.number(Double(i))
        }
        for i in (0..<depth).reversed() {
            w.endArray()
            if i > 0 { w.number(Double(-i)) }
        }
        var expected = "[0"
        for i in 1..<depth { expected += ",[\(i)" }
        for i in (1..<depth).reversed() { expected += "],-\(i)" }
        expected += "]"
        #expect(text(&w) == expected)
    }

    @Test func objectsKeepTheirCommasAfterNestedContainersAtEveryDepth() {
        var w = JSONWriter(reservingCapacity: 16)
        var expected = ""
        for depth in [1, 63, 64, 65, 130] {
            for _ in 0..<depth {
                w.beginObject()
                w.key("a")
                expected += #"{"a":"#
            }
            w.null()
            expected += "null"
            for _ in 0..<depth {
                w.key(static: "b"); w.bool(true)
                w.endObject()
                expected += #","b":true}"#
            }
            #expect(text(&w) == expected, "depth \(depth)")
            expected = ""
        }
    }

    @Test func growsFromATinyBufferWithoutLosingText() {
        var w = JSONWriter(reservingCapacity: 1)
        var expected = "["
        w.beginArray()
        for i in 0..<20_000 {
            let s = "item \(i) " + String(repeating: "x", count: i % 37)
            w.string(s)
            expected += (i == 0 ? "" : ",") + "\"\(s)\""
        }
        w.endArray()
        expected += "]"
        #expect(w.count == expected.utf8.count)
        #expect(text(&w) == expected)
    }

    @Test func escapesOnlyWhatJSONRequires() {
        var w = JSONWriter()
        w.string("plain, ünïcödé ✓ / and \"quotes\", back\\slash, \n\r\t and \u{01}\u{1F}")
        #expect(text(&w) == #""plain, ünïcödé ✓ / and \"quotes\", back\\slash, \n\r\t and \u0001\u001f""#)
        var e = JSONWriter()
        e.beginArray(); e.string(""); e.string("\u{00}\u{00}\u{00}"); e.endArray()
        #expect(text(&e) == #"["","\u0000\u0000\u0000"]"#)
    }

    @Test func integersAndFractionsReadBackExactly() throws {
        let values: [Double] = [
            0, 9, 10, -1, -9, -10, 99, 100, 123_456_789, -987_654_321, 999_999_999_999_999,
            -999_999_999_999_999, 1e15, 0.5, -2.25, 1e-7, .greatestFiniteMagnitude, -0.0,
            -.leastNonzeroMagnitude, -2.2250738585072014e-308, 4_503_599_627_370_497
        ]
        var w = JSONWriter(reservingCapacity: 2)
        w.beginArray()
        for v in values { w.number(v) }
        w.number(.nan)
        w.endArray()
        let written = text(&w)
        #expect(written.hasPrefix("[0,9,10,-1,-9,-10,99,100,123456789,-987654321,999999999999999,-999999999999999,"))
        #expect(written.hasSuffix(",null]"))
        let back = try JSONCodec.decode(written).arrayValue ?? []
        #expect(back.dropLast().map(\.doubleValue) == values.map(Optional.some))
    }

    /// Members written through a cursor (one capacity check for all) are the text the writer's own calls give,
    /// after a member already there (the comma) and across growth from a tiny buffer, escapes and numbers included.
    @Test func cursorMembersAreTheWritersText() {
        let strings = [
            "", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "a\"b", "tab\there", String(repeating: "é", count: 40)
        ]
        let numbers: [Double] = [0, -345, 550.25, 1e-7, -0.0, 123_456_789_012]
        for s in strings {
            for n in numbers {
                var ours = JSONWriter(reservingCapacity: 1), theirs = JSONWriter(reservingCapacity: 1)
                ours.beginObject(); ours.key(static: "first"); ours.bool(true)
                ours.members(atMost: 24 + JSONCursor.room(for: s) + 2 * JSONCursor.numberRoom) { c in
                    c.raw("\"s\":"); c.string(s); c.raw(",\"p\":["); c.number(n); c.raw(","); c.number(-n); c.raw("]")
                }
                ours.endObject()
                theirs.beginObject(); theirs.key(static: "first"); theirs.bool(true)
                theirs.key("s"); theirs.string(s)
                theirs.key("p"); theirs.beginArray(); theirs.number(n); theirs.number(-n); theirs.endArray()
                theirs.endObject()
                #expect(text(&ours) == text(&theirs), "\(s) \(n)")
            }
        }
    }

    @Test func copiedMembersAreTheWrittenTextAgain() {
        var w = JSONWriter(reservingCapacity: 4)
        w.beginArray()
        w.beginObject()
        let start = w.count
        w.key(static: "id"); w.string("a\"b")
        w.key("n"); w.beginArray(); w.number(1); w.number(2); w.endArray()
        let members = start..<w.count
        w.endObject()
        // Copied alone, and after a member of its own (which needs the comma).
        w.beginObject(); w.copyMembers(members); w.endObject()
        w.beginObject(); w.key(static: "step"); w.string("x"); w.copyMembers(members); w.copyMembers(start..<start);
        w.endObject()
        w.endArray()
        #expect(text(&w) == #"[{"id":"a\"b","n":[1,2]},{"id":"a\"b","n":[1,2]},{"step":"x","id":"a\"b","n":[1,2]}]"#)
    }

    @Test func objectsInOnePieceAreWhatTheirPartsWouldWrite() {
        // Small room, so that each piece grows the writer first.
        var ours = JSONWriter(reservingCapacity: 4)
        var theirs = JSONWriter(reservingCapacity: 4)
        ours.beginObject(); theirs.beginObject()
        ours.key(static: "visits"); theirs.key(static: "visits")
        ours.beginArray(); theirs.beginArray()
        var ranges: [Range<Int>] = []
        for id in ["a", "b\"c", "ddddddddddddddddddddddd"] {
            let room =
                JSONCursor.memberRoom + JSONCursor.room(for: id) + 2 * JSONCursor.numberRoom + 3 + JSONCursor.memberRoom
            ranges.append(
                ours.object(atMost: room) { c in
                    c.raw("\"id\":"); c.string(id)
                    c.raw(",\"point\":["); c.number(1.5); c.raw(","); c.number(-2); c.raw("]")
                })
            theirs.beginObject()
            theirs.key(static: "id"); theirs.string(id)
            theirs.key(static: "point"); theirs.beginArray(); theirs.number(1.5); theirs.number(-2); theirs.endArray()
            theirs.endObject()
        }
        ours.endArray(); theirs.endArray()
        ours.key(static: "steps"); theirs.key(static: "steps")
        ours.beginArray(); theirs.beginArray()
        for range in ranges {
            ours.object(prefix: #""step":"s","#, copying: range)
            theirs.beginObject(); theirs.key(static: "step"); theirs.string("s"); theirs.copyMembers(range);
            theirs.endObject()
        }
        ours.endArray(); theirs.endArray()
        // As a member's value too, after a key.
        ours.key(static: "last"); theirs.key(static: "last")
        ours.object(prefix: #""x":1,"#, copying: ranges[0])
        theirs.beginObject(); theirs.key(static: "x"); theirs.number(1); theirs.copyMembers(ranges[0]);
        theirs.endObject()
        ours.endObject(); theirs.endObject()
        let written = text(&ours)
        #expect(written == text(&theirs))
        #expect(written.hasPrefix(#"{"visits":[{"id":"a","point":[1.5,-2]},{"id":"b\"c","#))
        #expect(written.contains(#"{"step":"s","id":"a","point":[1.5,-2]}"#))
    }

    @Test func bytesIsTheTextSoFarAndTakeBytesEmptiesTheWriter() {
        var w = JSONWriter(reservingCapacity: 64)
        w.beginArray(); w.number(1)
        #expect(w.bytes == Array("[1".utf8))
        #expect(w.byte(at: 1) == UInt8(ascii: "1"))
        w.endArray()
        #expect(w.takeBytes() == Array("[1]".utf8))
        #expect(w.count == 0)
        w.string("again")
        #expect(w.takeBytes() == Array(#""again""#.utf8))
    }

    /// The text stays whole as the writer's memory grows past its capacity again and again — by single bytes,
    /// by pieces larger than all room so far, by copies of its own text — and `takeBytes` hands it over and
    /// lets the writer go on, also after a text long enough that the writer starts small again.
    @Test func growsAcrossItsCapacityAndGoesOnAfterTakingTheText() {
        for reserve in [1, 100, 70_000] {
            var w = JSONWriter(reservingCapacity: reserve)
            for round in 0..<3 {
                let n = [10, 20_000, 3][round]
                w.beginArray()
                for i in 0..<n { w.string("r\(round)-\(i)") }
                let big = [UInt8](repeating: UInt8(ascii: "7"), count: 100_000 * round + 1)
                w.raw(big)
                w.endArray()
                let expected =
                    "[" + (0..<n).map { "\"r\(round)-\($0)\"" }.joined(separator: ",") + ","
                    + String(repeating: "7", count: big.count) + "]"
                #expect(w.bytes == Array(expected.utf8), "reserve \(reserve), round \(round)")
                #expect(w.takeBytes() == Array(expected.utf8), "reserve \(reserve), round \(round)")
                #expect(w.count == 0)
            }
            // Copies of its own text from before a growth, into room made after it.
            w.beginObject()
            w.key(static: "a"); w.string(String(repeating: "x", count: 300))
            let members = 1..<(w.count)
            for _ in 0..<10 { w.copyMembers(members) }
            w.endObject()
            let member = #""a":""# + String(repeating: "x", count: 300) + "\""
            #expect(
                w.takeBytes() == Array(("{" + Array(repeating: member, count: 11).joined(separator: ",") + "}").utf8))
        }
    }

    /// `handOver` gives the text in the writer's own allocation — small, grown, and grown far past its text —
    /// and the writer, left with no room, writes on from nothing; a text taken from it is empty.
    @Test func handOverGivesTheTextAndTheWriterGoesOnFromNothing() {
        var w = JSONWriter(reservingCapacity: 16)
        for n in [1, 3_000, 200_000, 0, 5] {
            w.beginArray()
            for i in 0..<n { w.number(Double(i)) }
            w.endArray()
            let expected = Array(("[" + (0..<n).map { String($0) }.joined(separator: ",") + "]").utf8)
            let text = w.handOver()
            #expect(text.count == expected.count)
            #expect(text.bytes == expected, "\(n) numbers")
            #expect(w.count == 0)
            #expect(w.bytes.isEmpty)
            if n == 5 {
                let taken = text.take()
                #expect(text.bytes.isEmpty)
                #expect(UnsafeRawBufferPointer(start: taken, count: expected.count).elementsEqual(expected))
                free(taken)
            }
        }
        // A writer dropped with no room frees nothing it does not own.
        var left = JSONWriter(reservingCapacity: 64)
        left.string("x")
        #expect(left.handOver().bytes == Array(#""x""#.utf8))
    }

    /// The word-at-a-time check and copy agree with a byte loop at every length around their eight-byte steps,
    /// with the byte that needs an escape at every position (and bytes ≥ 0x80, which never do).
    @Test func shortStringsAreCheckedAndCopiedAsAByteLoopWould() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let plain: [UInt8] =
            Array("abcXYZ019-_./: ".utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0x7F, 0x20, 0x21, 0x23, 0x5B, 0x5D]
        let special: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C]
        for n in 0...40 {
            for trial in 0..<60 {
                var bytes = (0..<n).map { _ in plain[Int(next() % UInt64(plain.count))] }
                if n > 0, trial % 2 == 0 { bytes[trial / 2 % n] = special[Int(next() % UInt64(special.count))] }
                let expected = !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
                bytes.withUnsafeBufferPointer { b in
                    if n > 0 { #expect(JSONWriter.isClean(b.baseAddress!, n) == expected, "\(bytes)") }
                    var out = [UInt8](repeating: 0xEE, count: n + 1)
                    out.withUnsafeMutableBufferPointer { o in
                        if n > 0 { JSONWriter.copy(b.baseAddress!, n, to: o.baseAddress!) }
                    }
                    #expect(Array(out[0..<n]) == bytes && out[n] == 0xEE, "copy of \(n) bytes")
                }
            }
        }
    }
}

/// Integers are written two digits at a time; the text must be `String(Int64)`'s for every length.
@Suite struct IntegerTextTests {
    static func written(_ n: Double) -> String {
        var w = JSONWriter()
        w.number(n)
        return String(decoding: w.takeBytes(), as: UTF8.self)
    }

    @Test func everyIntegerUpToAHundredThousandEitherSign() {
        var wrong: [Int] = []
        for n in -100_000...100_000 where Self.written(Double(n)) != String(n) { wrong.append(n) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func eachPowerOfTenAndItsNeighboursUpToTheLimit() {
        var p: Int64 = 1
        while p < 1_000_000_000_000_000 {
            for n in [p - 1, p, p + 1, -p + 1, -p, -p - 1] where abs(n) < 1_000_000_000_000_000 {
                #expect(Self.written(Double(n)) == String(n), "\(n)")
            }
            p *= 10
        }
    }
}
