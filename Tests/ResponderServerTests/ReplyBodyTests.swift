import Testing
import ResponderProtocol
@testable import ResponderServer

/// Issue 15: a `String?` result is written without the encoder; the bytes must be the encoder's.
@Suite struct ReplyBodyTests {
    @Test(arguments: [nil, "TF1", "", "quote \" and backslash \\", "line\nbreak\u{01}", "é😀"] as [String?])
    func aNameOrNullIsWrittenAsTheEncoderWritesIt(_ name: String?) {
        guard case .encoded(let bytes) = ReplyBody(Reply<String?>.typed(name)) else {
            Issue.record("expected encoded bytes")
            return
        }
        #expect(bytes == WireByteEncoder.encode(name))
    }
}
