import Foundation
import ResponderProtocol

/// Turns one request body into at most one reply body: parsing, dispatch to the handler, and the
/// guarantee that every failure is a JSON-RPC error (never a crash, never a half-applied change).
struct RequestProcessor {
    let state: EngineState

    /// Returns the encoded reply, or nil for a notification.
    func process(_ body: [UInt8], from routingID: [UInt8], now: Date) -> [UInt8]? {
        let client = state.client(for: routingID, now: now)
        let limits = state.config.limits
        guard body.count <= limits.maxMessageBytes else {
            return encode(id: .null, .failure(RPCError(.limitExceeded, "the request is \(body.count) bytes; at most \(limits.maxMessageBytes) are accepted", [("limit", "messageBytes"), ("max", JSON(limits.maxMessageBytes))])))
        }
        // Each tree level nests twice in JSON (the node object and its children array).
        var request: RPCRequest
        switch RPCRequest.parse(body, maxDepth: 2 * limits.maxDepth + 64) {
        case .success(let r): request = r
        case .failure(let failure):
            let error = failure.error.name == .limitExceeded ? failure.error.with("max", JSON(limits.maxDepth)) : failure.error
            return encode(id: failure.id, .failure(error))
        }
        let outcome: Result<ReplyBody, RPCError>
        if let handler = Methods.all[request.method] {
            do {
                var ctx = RequestContext(state: state, client: client, requestID: request.id)
                outcome = .success(try handler(&ctx, request.params))
            } catch let error as RPCError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(RPCError(.internalError, "\(error)"))
            }
        } else {
            outcome = .failure(RPCError(.methodNotFound, "no method \"\(request.method)\"", [("method", .string(request.method))]))
        }
        // The handler's context is gone, so `request` holds the params alone (but for parts the world keeps,
        // which stay whole): free them iteratively, whatever their depth.
        JSON.release(&request.params)
        guard let id = request.id else { return nil }
        return encode(id: id, outcome)
    }

    private func encode(id: JSON, _ outcome: Result<ReplyBody, RPCError>) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("jsonrpc"); w.string("2.0")
        w.key("id"); w.value(id)
        switch outcome {
        case .success(.json(let result)):
            w.key("result"); w.value(result)
        case .success(.encoded(let bytes)):
            w.key("result"); w.raw(bytes)
        case .failure(let error):
            w.key("error"); w.value(error.json)
        }
        w.endObject()
        return w.bytes
    }
}
