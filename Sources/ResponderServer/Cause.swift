import ResponderJSON
import ResponderProtocol

/// Which client's request produced an event: carried by every event so tools can tell their own effects
/// from another tool's and wait for exactly the effects of one request.
struct Cause {
    var client: String
    var request: JSON?
    /// A numeric request id as the client wrote it: events name the request exactly as its reply does.
    var requestText: [UInt8]? = nil

    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key(static: "client"); w.string(client)
        w.key(static: "request")
        if let requestText { w.raw(requestText) } else { w.value(request ?? .null) }
        w.endObject()
    }

    static let engine = Cause(client: "$engine", request: nil)
}
