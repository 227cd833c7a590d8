import ResponderJSON
import ResponderProtocol

/// A handler's answer: its method's `Response`, as a value or as a body that writes the same text (under
/// `trace: "none"`, the lighter reply 1.8 gives). `reply(to:typed:)` writes every reply around it, live and dry
/// runs alike.
protocol ResponseBody<Response> {
    associatedtype Response: Encodable
    /// Bytes to reserve for the body's text: a reply that outgrows its room is copied as it grows.
    var room: Int { get }
    /// Writes the body as the reply's `result`. `typed` writes a `Response` value, chosen once per method
    /// (`WireByteEncoder.writer(for:)`), for a body that is one. False, with `w` unusable, when the value is one
    /// the byte writer leaves to the tree encoder.
    func write(to w: inout JSONWriter, typed: (Response, inout JSONWriter) -> Bool) -> Bool
    /// The whole reply, written once below for every body. A requirement so that each body type has it compiled
    /// for that type: called on a handler's answer, an existential, an extension method would run as generic code.
    func reply(to ctx: RequestContext, typed: (Response, inout JSONWriter) -> Bool) -> WrittenText?
}

extension ResponseBody {
    /// The whole reply to `ctx`'s request, `{"jsonrpc":"2.0","id":…,"result":<the body>}`; nil for a
    /// notification, which JSON-RPC does not answer. The body is written inside its envelope: written apart, it
    /// would be an allocation and a copy of every byte (a hit test's reply is about 4 KB).
    func reply(to ctx: RequestContext, typed: (Response, inout JSONWriter) -> Bool) -> WrittenText? {
        guard let id = ctx.requestID else { return nil }
        var w = Self.envelope(id: id, ctx, room: room + 128)
        if !write(to: &w, typed: typed) {
            // Only a `Response` value fails (a shape a stream cannot write): the tree encoder writes it, without
            // asking the byte writer again.
            guard let value = self as? Response else { preconditionFailure("only a typed value is left unwritten") }
            let text = WireEncoder.encodeBytes(value)
            w = Self.envelope(id: id, ctx, room: text.count + 128)
            w.raw(text)
        }
        w.endObject()
        return w.handOver()
    }

    /// A reply up to its `result`'s value, in room for `room` bytes (sent and dropped: handed over as written).
    private static func envelope(id: JSON, _ ctx: RequestContext, room: Int) -> JSONWriter {
        var w = JSONWriter(reservingCapacity: room)
        RequestProcessor.beginReply(id: id, idText: ctx.requestIDText, to: &w)
        w.key(static: "result")
        return w
    }
}

/// A method's `Response` value, answered as it is.
protocol TypedResponse: ResponseBody, Encodable where Response == Self {}

extension TypedResponse {
    // Most results are short: a long one grows (from 1 KB the text is handed over as written).
    var room: Int { 384 }

    func write(to w: inout JSONWriter, typed: (Self, inout JSONWriter) -> Bool) -> Bool { typed(self, &w) }
}

extension Published: TypedResponse {}
extension Traced: TypedResponse {}
/// responder.first's bare name or null.
extension Optional: ResponseBody, TypedResponse where Wrapped == String {}
extension EngineInfoRequest.Response: TypedResponse {}
extension ClientHelloRequest.Response: TypedResponse {}
extension SessionCreateRequest.Response: TypedResponse {}
extension SessionListRequest.Response: TypedResponse {}
extension SessionDeleteRequest.Response: TypedResponse {}
extension SessionClientsRequest.Response: TypedResponse {}
extension WhyNotAnswer: TypedResponse {}

/// Text already encoded as a `Response` (a stored tree, replayed events, a snapshot) or as the lighter reply
/// of `trace: "none"`: copied into the envelope as it is.
struct EncodedResponse<Response: Encodable>: ResponseBody {
    let text: [UInt8]

    init(_ text: [UInt8]) { self.text = text }

    var room: Int { text.count }

    func write(to w: inout JSONWriter, typed _: (Response, inout JSONWriter) -> Bool) -> Bool {
        w.raw(text)
        return true
    }
}
