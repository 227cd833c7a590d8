import ResponderJSON
import ResponderTestBasics
import Testing

@testable import ResponderProtocol

/// A request's parts that may nest deeply are freed iteratively: each check runs on a thread with a 512 KiB
/// stack (`ThreadWithStack`), where a recursive free of a few thousand levels would crash the run.
@Suite struct RequestReleaseTests {
    static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
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

    @Test(.tags(.slow)) func slowARequestFreesWhatItDoesNotKeep() {
        ThreadWithStack.run {
            let deep = Self.nestedArrays(300_000)
            func failure(_ text: String) -> ErrorName? {
                if case .failure(let f) = RPCRequest.parse(Array(text.utf8)) { return f.error.name }
                return nil
            }
            #expect(failure(deep) == .invalidRequest)
            #expect(failure(#"{"jsonrpc":"2.0","id":"# + deep + #","method":"x"}"#) == .invalidRequest)
            #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"x","params":"# + deep + "}") == .invalidParams)
            #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"# + deep + "}") == .invalidRequest)
            #expect(failure(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"# + deep + "}") == .parseError)

            // Accepted: an unknown deep member is freed with the envelope; the params are the request's alone.
            let text = #"{"jsonrpc":"2.0","junk":"# + deep + #","id":1,"method":"x","params":{"tree":"# + deep + "}}"
            guard case .success(var request) = RPCRequest.parse(Array(text.utf8)) else {
                Issue.record("the request was refused")
                return
            }
            #expect(Self.depth(of: request.params) == 300_001)
            JSON.release(&request.params)
        }
    }
}
