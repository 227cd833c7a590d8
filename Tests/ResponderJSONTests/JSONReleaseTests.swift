import ResponderTestBasics
import Testing

@testable import ResponderJSON

/// Every check runs on a thread with a 512 KiB stack (`ThreadWithStack`), where freeing even a few thousand
/// levels recursively would crash the run: passing proves that parsing, holding and freeing are iterative.
@Suite struct JSONReleaseTests {
    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    static func nestedObjects(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    /// How many containers deep `value` goes along first elements and members, walked iteratively.
    static func depth(of value: JSON) -> Int {
        var depth = 0
        var current = value
        while true {
            switch current {
            case .array(let a) where !a.isEmpty: current = a[0]
            case .object(let m) where !m.isEmpty: current = m[0].value
            case .array, .object: return depth + 1
            default: return depth
            }
            depth += 1
        }
    }

    @Test(.tags(.slow)) func slowAMillionDeepArrayIsParsedHeldAndFreedOnASmallStack() {
        ThreadWithStack.run {
            let depth = 1_000_000
            let text = Self.nestedArrays(depth)
            var value = (try? JSONCodec.decode(text)) ?? .null
            #expect(Self.depth(of: value) == depth)
            #expect(JSONCodec.encode(value).count == text.utf8.count)
            JSON.release(&value)
            #expect(value.isNull)
        }
    }

    @Test(.tags(.slow)) func slowAMillionDeepObjectIsParsedHeldAndFreedOnASmallStack() {
        ThreadWithStack.run {
            let depth = 1_000_000
            let text = Self.nestedObjects(depth)
            var value = (try? JSONCodec.decode(text)) ?? .null
            #expect(Self.depth(of: value) == depth)
            #expect(JSONCodec.encode(value) == Array(text.utf8))
            JSON.release(&value)
            #expect(value.isNull)
        }
    }

    @Test(.tags(.slow)) func slowAParseErrorFreesWhatWasBuiltIteratively() {
        ThreadWithStack.run {
            let depth = 200_000
            let deep = Self.nestedArrays(depth)
            let failures = [
                deep + "x",  // a whole deep document, then text after it
                "[" + deep + ",",  // a deep element in an open array
                "[" + deep + " 1]",  // … then a missing comma
                #"{"a":"# + Self.nestedObjects(depth) + #","b":tru"#,  // a deep member in an open object
                #"{"a":"# + deep + #","b""#,  // … then a key without a value
                "[" + deep + "," + String(repeating: "[", count: depth),  // a deep sibling of unclosed frames
                "[" + deep + "," + Self.nestedArrays(depth + 10) + "]"  // past the limit beside a deep sibling
            ]
            for (i, text) in failures.enumerated() {
                let maxDepth = i == failures.count - 1 ? depth + 5 : JSONCodec.defaultMaxDepth
                #expect(throws: JSONParseError.self, "case \(i)") { try JSONCodec.decode(text, maxDepth: maxDepth) }
            }
        }
    }

    @Test func aSharedPartStaysWholeForItsOtherHolder() {
        ThreadWithStack.run {
            let depth = 200_000
            var kept = (try? JSONCodec.decode(Self.nestedArrays(depth))) ?? .null
            var outer: JSON = .object([("kept", kept), ("wide", .array([[1], [2], ["x": [true]]]))])
            JSON.release(&outer)
            #expect(outer.isNull)
            // `kept` shared its buffers with `outer`: they were let go of, not emptied.
            #expect(Self.depth(of: kept) == depth)
            #expect(JSONCodec.encode(kept).count == 2 * depth)
            JSON.release(&kept)
        }
    }

    @Test func sharedBuffersAreToldFromUniqueOnes() {
        // A shared buffer mistaken for a unique one would be emptied under its other holder's feet.
        var probe: [JSON] = []
        for _ in 0..<2 { probe.append([1]) }  // built at run time: a literal may be a static, immortal buffer
        #expect(holdsOnlyReference(&probe))
        let copy = probe
        #expect(!holdsOnlyReference(&probe))
        #expect(copy == [[1], [1]] && probe == [[1], [1]])
        #expect(holdsOnlyReference(&probe))  // the copy it made is its own
    }

    @Test func releaseLeavesScalarsAndEmptyContainersAsNull() {
        for value: JSON in [nil, true, 3, "s", [], [:], [1, [2, ["a": [3]]]]] {
            var v = value
            JSON.release(&v)
            #expect(v.isNull)
        }
        var elements: [JSON] = [[1], ["a": [2]]]
        JSON.release(&elements)
        #expect(elements.isEmpty)
        var members: [(key: String, value: JSON)] = [("a", [1, [2]])]
        JSON.release(&members)
        #expect(members.isEmpty)
    }

    @Test func aHolderFreesItsValueWhenItsLastCopyGoes() {
        ThreadWithStack.run {
            let depth = 300_000
            var holder = JSONHolder((try? JSONCodec.decode(Self.nestedArrays(depth))) ?? .null)
            let copy = holder
            #expect(copy == holder)
            holder.value = [1]  // a new box: the copy's value is untouched
            #expect(holder.value == [1])
            #expect(copy != holder)
            #expect(Self.depth(of: copy.value) == depth)
            // `copy` is the box's last holder: it goes at the end of this closure, freeing the value iteratively.
        }
        #expect(JSONHolder([1, ["a": nil]]) == JSONHolder([1, ["a": nil]]))
    }
}
