import Testing

@testable import ResponderJSON

/// The writer's shortcuts against its general paths: small whole numbers written inline, and a hit test's steps
/// copied in one piece (`objects(prefix:copying:)`), byte for byte as the writes they stand for.
@Suite struct JSONWriterPieceTests {
    private func text(_ w: inout JSONWriter) -> String { String(decoding: w.takeBytes(), as: UTF8.self) }

    @Test func smallWholeNumbersReadAsTheirIntegers() {
        var w = JSONWriter(reservingCapacity: 16)
        w.beginArray()
        for n in -10_001...10_001 { w.number(Double(n)) }
        w.number(-0.0)
        w.number(9999.5)
        w.number(-9999.5)
        w.number(0.25)
        w.endArray()
        let expected = "[" + (-10_001...10_001).map { String($0) }.joined(separator: ",") + ",0,9999.5,-9999.5,0.25]"
        #expect(text(&w) == expected)
    }

    @Test func stepsCopiedInOnePieceMatchOneAtATime() {
        for count in [0, 1, 2, 17] {
            var ours = JSONWriter(reservingCapacity: 16)
            var theirs = JSONWriter(reservingCapacity: 16)
            var ranges: [Range<Int>] = []
            ours.beginObject(); theirs.beginObject()
            ours.key(static: "visited"); theirs.key(static: "visited")
            ours.beginArray(); theirs.beginArray()
            for i in 0..<count {
                func visit(_ c: inout JSONCursor) {
                    c.raw(#""id":"#); c.string("v\(i)")
                    c.raw(#","n":"#); c.number(Double(i))
                }
                ranges.append(ours.object(atMost: 64, visit))
                theirs.object(atMost: 64, visit)
            }
            ours.endArray(); theirs.endArray()
            ours.key(static: "steps"); theirs.key(static: "steps")
            ours.beginArray(); theirs.beginArray()
            ranges.withUnsafeBufferPointer { ours.objects(prefix: #""step":"hitTest","#, copying: $0) }
            for r in ranges { theirs.object(prefix: #""step":"hitTest","#, copying: r) }
            // A step after them takes its comma as any element would.
            ours.number(1); theirs.number(1)
            ours.endArray(); theirs.endArray()
            ours.endObject(); theirs.endObject()
            let written = text(&ours)
            #expect(written == text(&theirs))
            if count > 1 {
                #expect(written.contains(#"{"step":"hitTest","id":"v0","n":0},{"step":"hitTest","id":"v1","n":1}"#))
            }
        }
    }
}
