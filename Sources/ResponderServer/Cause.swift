import ResponderProtocol

/// Which client's request produced an event: carried by every event so tools can tell their own effects
/// from another tool's and wait for exactly the effects of one request.
struct Cause {
    var client: String
    var request: JSON?

    var json: JSON { ["client": .string(client), "request": request ?? .null] }

    static let engine = Cause(client: "$engine", request: nil)
}
