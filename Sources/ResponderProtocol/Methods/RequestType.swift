/// A method of the protocol (section 11/12): its params are the type's members, `Response` is its result.
/// Decoded strictly (an unknown member is an error naming it) and encoded with the wire encoder.
public protocol RequestType: Codable, Sendable {
    associatedtype Response: Codable & Sendable
    static var method: String { get }
    /// What the params must satisfy besides their types: `ValidatedParams.validate()` for a request that has
    /// such rules, nothing for the others. A requirement, so that a reader holding the concrete type calls it
    /// directly, where asking `as? any ValidatedParams` would look the conformance up and box the request.
    func validateParams() throws(RPCError)
}

extension RequestType {
    public func validateParams() throws(RPCError) {}
}

extension RequestType where Self: ValidatedParams {
    public func validateParams() throws(RPCError) { try validate() }
}

/// A method addressed to one session (`session`, default "default").
public protocol SessionRequest: RequestType {
    var session: String? { get }
}

extension SessionRequest {
    public var sessionName: String { session ?? "default" }
}

/// A request that changes a session's tree or ends it: on a session created with an `owner` token, only a
/// request carrying the same token may do so (section 7.1, `SESSION_OWNED`).
public protocol OwnerGated: SessionRequest {
    var owner: String? { get }
}

public enum SessionOwner {
    /// The methods that take `owner`: the gated ones, and `session.create`, which sets it.
    public static let methods: Set<String> = [
        SessionCreateRequest.method, TreeLoadRequest.method, TreeApplyRequest.method,
        MakeKeyRequest.method, SessionDeleteRequest.method
    ]
}

/// Every method, in the order of Protocol/README.md. The engine builds its method table from this list.
public enum MethodRegistry {
    public static let all: [any RequestType.Type] = [
        EngineInfoRequest.self, ClientHelloRequest.self,
        SessionCreateRequest.self, SessionListRequest.self, SessionDeleteRequest.self, SessionSnapshotRequest.self,
        SessionClientsRequest.self,
        TraceReplayRequest.self, TreeGetRequest.self, TreeLoadRequest.self, TreeApplyRequest.self,
        HitTestRequest.self, ResponderChainRequest.self, TouchRequest.self, TapRequest.self, ClockAdvanceRequest.self,
        MotionRequest.self, RemoteControlRequest.self,
        PressRequest.self, BecomeRequest.self, ResignRequest.self, EndEditingRequest.self, FirstResponderRequest.self,
        MakeKeyRequest.self,
        SendActionRequest.self, CanPerformRequest.self, WhyNotRequest.self, MenuItemRequest.self
    ]

    public static var names: [String] { all.map { $0.method }.sorted() }
}

func invalid(_ field: String, _ message: String) -> RPCError {
    RPCError(.invalidParams, "\(field): \(message)", [("field", .string(field))])
}

/// A request that can be asked "what if": with `dryRun: true` the engine answers what the request would do
/// (reply, trace, errors) on a copy of the session, and nothing changes, nothing is published, no seq is used.
public protocol DryRunnable: SessionRequest {
    var dryRun: Bool? { get set }
}

extension DryRunnable {
    public var isDryRun: Bool { dryRun == true }
}
