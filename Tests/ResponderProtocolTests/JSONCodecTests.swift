import ResponderJSON
import ResponderTestBasics
import Testing

@testable import ResponderProtocol

@Suite struct JSONCodecTests {
    @Test func roundTripsEveryKindOfValue() throws {
        let text = #"{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"x\"y\\z\n\u00e9\ud83d\ude00"},"d":{}}"#
        let value = try JSONCodec.decode(text)
        #expect(value["a"] == [1, 2.5, -300, true, false, nil])
        #expect(value["b"]?["c"] == .string("x\"y\\z\né😀"))
        #expect(try JSONCodec.decode(JSONCodec.encode(value)) == value)
    }

    /// Integers are read without text and strings without an escape straight from the bytes; both must
    /// give what the general path gives (Double's own parser, the escaped path).
    @Test func fastNumberAndStringPathsAgreeWithTheGeneralOnes() throws {
        let numbers = [
            "0", "-0", "7", "-7", "123456789012345", "-123456789012345", "1234567890123456", "9007199254740993",
            "12.5", "1e3", "-0.25", "00", "-01"
        ]
        for text in numbers {
            let parsed = try? JSONCodec.decode(text)
            if let expected = Double(text), !text.hasPrefix("00"), !text.hasPrefix("-01") {
                #expect(parsed == .number(expected), "\(text)")
                #expect(parsed?.doubleValue?.sign == expected.sign, "\(text): sign")
            } else {
                #expect(parsed == nil, "\(text) is not JSON")
            }
        }
        #expect(try JSONCodec.decode(#""plain""#) == .string("plain"))
        #expect(
            try JSONCodec.decode(#""a long string without any escape at all, é""#)
                == .string("a long string without any escape at all, é"))
        #expect(try JSONCodec.decode(#""run then \"escape\" then run""#) == .string(#"run then "escape" then run"#))
        #expect(throws: JSONParseError.self) { try JSONCodec.decode([0x22, 0xFF, 0x22]) }  // invalid UTF-8
        #expect(throws: JSONParseError.self) { try JSONCodec.decode([0x22, 0x61, 0x0A, 0x22]) }  // control character
    }

    @Test func keepsObjectKeyOrder() throws {
        let value = try JSONCodec.decode(#"{"z":1,"a":2,"m":3}"#)
        #expect(JSONCodec.encodeString(value) == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\"}", "tru", "01", "1.", "\"abc", "{\"a\":1}x", "\"\\x\"", "\"\\ud800\""])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONCodec.decode(text) }
    }

    @Test func parsesAndWritesA100000DeepDocumentWithoutRecursion() {
        // Parsing, writing and (with JSON.release) freeing are iterative: a small stack is enough.
        ThreadWithStack.run {
            let depth = 100_000
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            var value = (try? JSONCodec.decode(text)) ?? .null
            #expect(value.arrayValue != nil)
            #expect(JSONCodec.encode(value).count == depth * 2)
            JSON.release(&value)
            #expect(value.isNull)
        }
    }

    @Test func refusesNestingBeyondTheLimit() {
        #expect(throws: JSONParseError.self) { try JSONCodec.decode("[[[[1]]]]", maxDepth: 3) }
        #expect((try? JSONCodec.decode("[[[1]]]", maxDepth: 3)) != nil)
    }

    @Test func writesIntegersWithoutAFraction() {
        #expect(JSONCodec.encodeString([1, 2.5, -0.0, 1e20]) == "[1,2.5,0,1e+20]")
    }
}

@Suite struct RPCEnvelopeTests {
    @Test func readsARequestAndItsParams() throws {
        let r = try RPCRequest.parse(Array(#"{"jsonrpc":"2.0","id":7,"method":"tree.get","params":{"id":"x"}}"#.utf8))
            .get()
        #expect(r.id == 7)
        #expect(r.method == "tree.get")
        #expect(r.params["id"] == "x")
    }

    @Test func namesWhatIsWrongWithABadRequest() {
        func failure(_ text: String) -> RPCFailure? {
            if case .failure(let f) = RPCRequest.parse(Array(text.utf8)) { return f }
            return nil
        }
        #expect(failure("{oops")?.error.name == .parseError)
        #expect(failure("[1]")?.error.name == .invalidRequest)
        #expect(failure(#"{"jsonrpc":"1.0","id":1,"method":"x"}"#)?.error.name == .invalidRequest)
        #expect(failure(#"{"jsonrpc":"2.0","id":1}"#)?.error.detail("field") == "method")
        #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#)?.error.name == .invalidParams)
        #expect(failure(#"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#)?.error.name == .invalidRequest)
    }

    @Test func errorCodesAreUniqueAndInTheirRanges() {
        let codes = ErrorName.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        for name in ErrorName.allCases where name.code > -32600 || name.code < -32700 {
            #expect((-32099 ... -32000).contains(name.code), "\(name) has code \(name.code)")
        }
    }

    @Test func paramReaderNamesUnknownAndMistypedFields() throws {
        var r = try ParamReader(["session": "s", "hiden": true])
        _ = try r.string("session")
        do { try r.finish(); Issue.record("accepted an unknown field") } catch {
            #expect(error.detail("field") == "hiden")
        }
        var t = try ParamReader(["id": 3])
        do { _ = try t.string("id"); Issue.record("accepted a number as a string") } catch {
            #expect(error.name == .invalidParams)
            #expect(error.detail("field") == "id")
        }
    }
}
