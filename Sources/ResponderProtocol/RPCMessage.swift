/// A JSON-RPC 2.0 request as the engine receives it.
public struct RPCRequest: Sendable {
    /// nil for a notification (no reply is sent).
    public var id: JSON?
    public var method: String
    public var params: JSON

    public init(id: JSON?, method: String, params: JSON = .object([])) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Parses a request body. On failure returns the error and, when it could be read, the id to answer with.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONCodec.defaultMaxDepth) -> Result<RPCRequest, RPCFailure> {
        var body: JSON
        do { body = try JSONCodec.decode(bytes, maxDepth: maxDepth) } catch {
            let limit = error.message.hasPrefix("nesting deeper")
            return .failure(RPCFailure(id: .null, error: RPCError(limit ? .limitExceeded : .parseError, "invalid JSON: \(error)", limit ? [("limit", "depth")] : [])))
        }
        let request = read(body)
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
            return .failure(RPCFailure(id: .null, error: RPCError(.invalidRequest, "id must be a string, a number or null", [("field", "id")])))
        }
        guard body["jsonrpc"] == .string("2.0") else {
            return .failure(RPCFailure(id: id ?? .null, error: RPCError(.invalidRequest, "jsonrpc must be \"2.0\"", [("field", "jsonrpc")])))
        }
        guard let method = body["method"]?.stringValue else {
            return .failure(RPCFailure(id: id ?? .null, error: RPCError(.invalidRequest, "method must be a string", [("field", "method")])))
        }
        let params = body["params"] ?? .object([])
        guard case .object = params else {
            return .failure(RPCFailure(id: id ?? .null, error: RPCError(.invalidParams, "params must be an object", [("field", "params")])))
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
    public var error: RPCError
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
