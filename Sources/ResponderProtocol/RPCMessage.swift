import ResponderJSON

/// A JSON-RPC 2.0 request as the engine receives it.
public struct RPCRequest: Sendable {
    /// nil for a notification (no reply is sent).
    public var id: JSON?
    /// The id's JSON text as sent, when it is a number: echoed byte for byte (a Double would turn
    /// `12345678901234567890123` into `1.2345678901234568e+22` and `1e999` into null).
    public var idText: [UInt8]?
    public var method: String
    public var params: JSON

    public init(id: JSON?, method: String, params: JSON = .object([])) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Parses a request body. On failure returns the error and, when it could be read, the id to answer with.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONCodec.defaultMaxDepth) -> Result<
        RPCRequest, RPCFailure
    > {
        var body: JSON
        let idText: [UInt8]?
        do {
            (body, idText) = try JSONCodec.decode(
                bytes, maxDepth: maxDepth, numberTextOf: "id", strings: KnownStrings.table)
        } catch {
            let limit = error.message.hasPrefix("nesting deeper")
            return .failure(
                RPCFailure(
                    id: .null,
                    error: RPCError(
                        limit ? .limitExceeded : .parseError, "invalid JSON: \(error)",
                        limit ? [("limit", "depth")] : [])))
        }
        var request = read(body)
        switch request {
        case .success(var r):
            r.idText = idText
            request = .success(r)
        case .failure(var f):
            if f.id.doubleValue != nil { f.idText = idText }
            request = .failure(f)
        }
        // Whatever the request does not keep (all of it, when it is refused) is freed here, iteratively; the
        // params it keeps are shared, so they stay whole.
        JSON.release(&body)
        return request
    }

    private static func read(_ body: JSON) -> Result<RPCRequest, RPCFailure> {
        guard case .object = body else {
            return .failure(RPCFailure(id: .null, error: RPCError(.invalidRequest, "a request must be a JSON object")))
        }
        let id = body["id"]
        if let id, !(id.stringValue != nil || id.doubleValue != nil || id.isNull) {
            return .failure(
                RPCFailure(
                    id: .null,
                    error: RPCError(.invalidRequest, "id must be a string, a number or null", [("field", "id")])))
        }
        guard body["jsonrpc"] == .string("2.0") else {
            return .failure(
                RPCFailure(
                    id: id ?? .null, error: RPCError(.invalidRequest, "jsonrpc must be \"2.0\"", [("field", "jsonrpc")])
                ))
        }
        guard let method = body["method"]?.stringValue else {
            return .failure(
                RPCFailure(
                    id: id ?? .null, error: RPCError(.invalidRequest, "method must be a string", [("field", "method")]))
            )
        }
        let params = body["params"] ?? .object([])
        guard case .object = params else {
            // A readable request without an id is a notification: never answered, even when it is wrong.
            return .failure(
                RPCFailure(
                    id: id ?? .null, error: RPCError(.invalidParams, "params must be an object", [("field", "params")]),
                    isNotification: id == nil))
        }
        return .success(RPCRequest(id: id, method: method, params: params))
    }

    public var json: JSON {
        var members: [(key: String, value: JSON)] = [("jsonrpc", "2.0")]
        if let id { members.append(("id", id)) }
        members.append(("method", .string(method)))
        members.append(("params", params))
        return .object(members)
    }
}

/// A request that could not be read, with the id to answer it under.
public struct RPCFailure: Error, Sendable {
    public var id: JSON
    /// The id's text as sent, when it is a number (see `RPCRequest.idText`).
    public var idText: [UInt8]?
    public var error: RPCError
    /// The request was read well enough to know it has no id: no reply is sent.
    public var isNotification = false

    public init(id: JSON, idText: [UInt8]? = nil, error: RPCError, isNotification: Bool = false) {
        self.id = id
        self.idText = idText
        self.error = error
        self.isNotification = isNotification
    }
}

/// Builds and reads JSON-RPC responses.
public enum RPCResponse {
    public static func result(id: JSON, _ result: JSON) -> JSON {
        .object([("jsonrpc", "2.0"), ("id", id), ("result", result)])
    }

    public static func error(id: JSON, _ error: RPCError) -> JSON {
        .object([("jsonrpc", "2.0"), ("id", id), ("error", error.json)])
    }

    /// Reads a response: the result, or the error as an RPCError (unknown names become INTERNAL_ERROR).
    public static func read(_ body: JSON) -> Result<JSON, RPCError> {
        if let error = body["error"] {
            let nameText = error["data"]?["name"]?.stringValue ?? ""
            let name = ErrorName(rawValue: nameText) ?? .internalError
            var details = error["data"]?.objectMembers ?? []
            details.removeAll { $0.key == "name" }
            return .failure(RPCError(name, error["message"]?.stringValue ?? "", details))
        }
        return .success(body["result"] ?? .null)
    }
}
