import ResponderJSON
import ResponderProtocol

extension ResponderConnection {
    /// Sends a typed request (its members are the params) and returns its typed result, throwing `.rpc` for an
    /// error reply. The result is read leniently: members this client does not know (a newer engine) are ignored.
    public func send<R: RequestType>(_ request: R) throws(ClientError) -> R.Response {
        try send(R.self, params: Self.params(of: request))
    }

    /// Sends params put together elsewhere — a world or a batch of ops as the user wrote it, for the engine to
    /// read and to name any mistake in — and returns the typed result of `R`.
    public func send<R: RequestType>(_: R.Type, params: JSON) throws(ClientError) -> R.Response {
        var result = try call(R.method, params)
        // Deep members of the result are held by the typed reply (`@Held`); the rest is freed here, iteratively.
        defer { JSON.release(&result) }
        do {
            return try WireDecoder.decode(R.Response.self, from: result, strict: false)
        } catch {
            throw .badReply("the reply to \(R.method) does not match the protocol: \(error.message)")
        }
    }

    /// A request's params. A member left nil is left out rather than sent as null: the same to the engine,
    /// and an engine that predates the member (or reads null as a value) does not refuse it.
    public static func params<R: RequestType>(of request: R) -> JSON {
        .object((WireEncoder.encode(request).objectMembers ?? []).filter { !$0.value.isNull })
    }
}
