import Foundation
import ResponderCore
import ResponderJSON
import ResponderProtocol

/// Turns one request body into at most one reply body: parsing, dispatch to the handler, and the
/// guarantee that every failure is a JSON-RPC error (never a crash, never a half-applied change).
struct RequestProcessor {
    let state: EngineState
    /// The handler last looked up: a client sends the same method again and again, and comparing its name costs
    /// less than hashing it into the method table.
    private let lastMethod = LastMethod()

    init(state: EngineState) { self.state = state }

    /// Returns the encoded reply, or nil for a notification.
    func process(_ body: [UInt8], from routingID: [UInt8], peer: PeerStamp? = nil, now: Date) -> [UInt8]? {
        var parsed = Self.parse(body, limits: state.config.limits)
        return run(&parsed, from: routingID, peer: peer, now: now)?.bytes
    }

    /// Bodies up to this size are first tried as a `PlainRequest`: a larger one is a tree or a batch, which the
    /// plain reader would check only to hand it on.
    static let plainBytes = 2048

    /// Reads a request body: pure, so a large one is read off the engine thread (`OffloadWorker`).
    static func parse(_ body: [UInt8], limits: Limits) -> ParsedRequest {
        guard body.count <= limits.maxMessageBytes else {
            return .unreadable(
                id: .null, idText: nil,
                RPCError(
                    .limitExceeded,
                    "the request is \(body.count) bytes; at most \(limits.maxMessageBytes) are accepted",
                    [("limit", "messageBytes"), ("max", JSON(limits.maxMessageBytes))]))
        }
        // The common small request is read without a `JSON` tree; anything else by the general reader. The plain
        // reader takes only ASCII strings without escapes, which are in NFC as they are; the general one reads
        // strings in NFC (`NormalizedText`).
        if body.count <= plainBytes, let plain = PlainRequest.read(body) { return .plain(plain) }
        return parseTree(NormalizedText.json(body), limits: limits)
    }

    /// Reads a request body into a `JSON` tree (`RPCRequest.parse`), the size already checked.
    static func parseTree(_ body: [UInt8], limits: Limits) -> ParsedRequest {
        // Each tree level nests twice in JSON (the node object and its children array).
        switch RPCRequest.parse(body, maxDepth: 2 * limits.maxDepth + 64) {
        case .success(let r): return .request(r, prepared: nil)
        case .failure(let failure):
            guard !failure.isNotification else { return .silent }
            let error =
                failure.error.name == .limitExceeded ? failure.error.with("max", JSON(limits.maxDepth)) : failure.error
            return .unreadable(id: failure.id, idText: failure.idText, error)
        }
    }

    /// Serves a read request on the engine thread: the handler runs against the state. `parsed` is emptied:
    /// its params are freed here, iteratively, whatever their depth.
    func run(_ parsed: inout ParsedRequest, from routingID: [UInt8], peer: PeerStamp? = nil, now: Date) -> WrittenText?
    {
        let client = state.client(for: routingID, now: now)
        let holds = ClientClaims.claim(client, by: peer, in: state)
        let id: JSON?
        var idText: [UInt8]? = nil
        let outcome: Result<WrittenText?, RPCError>
        switch parsed {
        case .silent: return nil
        case .unreadable(let id, let idText, let error): return encode(id: id, idText: idText, error)
        case .refused(let request, let error):
            id = request.id
            idText = request.idText
            outcome = .failure(error)
        case .request(let request, let prepared):
            id = request.id
            idText = request.idText
            outcome = handle(
                request.method, .json(request.params), id: request.id, idText: request.idText, client: client,
                peer: peer,
                holds: holds, prepared: prepared)
        case .plain(let request):
            id = request.id
            idText = request.idText
            outcome = handle(
                request.method, .plain(request.params), id: request.id, idText: request.idText, client: client,
                peer: peer,
                holds: holds, prepared: nil)
        }
        parsed.release()
        switch outcome {
        case .success(let reply): return reply
        case .failure(let error):
            guard let id else { return nil }
            return encode(id: id, idText: idText, error)
        }
    }

    private func handle(
        _ method: String, _ params: RequestParams, id: JSON?, idText: [UInt8]?, client: ClientInfo, peer: PeerStamp?,
        holds: Bool, prepared: PreparedWorld?
    ) -> Result<WrittenText?, RPCError> {
        let handler: Handler
        if let last = lastMethod.entry, last.name == method {
            handler = last.handler
        } else {
            guard let found = Methods.all[method] else {
                return .failure(RPCError(.methodNotFound, "no method \"\(method)\"", [("method", .string(method))]))
            }
            lastMethod.entry = (method, found)
            handler = found
        }
        do {
            var ctx = RequestContext(
                state: state, client: client, requestID: id, peer: peer, holdsClientID: holds, requestIDText: idText)
            ctx.prepared = prepared
            return .success(try handler(&ctx, params))
        } catch let error as RPCError {
            return .failure(error)
        } catch {
            return .failure(RPCError(.internalError, "\(error)"))
        }
    }

    private func encode(id: JSON, idText: [UInt8]? = nil, _ error: RPCError) -> WrittenText {
        Self.errorReply(id: id, idText: idText, error)
    }

    /// The reply of a request that failed. `idText`: a numeric id as the client wrote it, echoed exactly.
    static func errorReply(id: JSON, idText: [UInt8]? = nil, _ error: RPCError) -> WrittenText {
        var w = JSONWriter(reservingCapacity: 256)
        Self.beginReply(id: id, idText: idText, to: &w)
        w.key("error"); w.value(error.conformed.json)
        w.endObject()
        return w.handOver()
    }

    /// `{"jsonrpc":"2.0","id":…`: a reply up to its `result` or `error` member. `idText`: a numeric id as the
    /// client wrote it, echoed exactly.
    static func beginReply(id: JSON, idText: [UInt8]?, to w: inout JSONWriter) {
        w.beginObject()
        // The version member known when compiled: one copy, where a key and an escape-checked string were two.
        w.members(static: #""jsonrpc":"2.0""#)
        w.key(static: "id")
        if let idText { w.raw(idText) } else { w.value(id) }
    }
}

/// The method a `RequestProcessor` last served and its handler. Unchecked: the processor runs on the engine's
/// thread, and each access, over before the next, would otherwise be a runtime call.
private final class LastMethod {
    @exclusivity(unchecked) var entry: (name: String, handler: Handler)?
}

/// A request body as read: unreadable (answered even without an id, as JSON-RPC says), refused while read
/// off the engine thread, or a request to serve (with its world already built when that was read off-thread).
enum ParsedRequest {
    case unreadable(id: JSON, idText: [UInt8]?, RPCError)
    /// A notification that cannot be read: JSON-RPC answers it with nothing.
    case silent
    case refused(RPCRequest, RPCError)
    case request(RPCRequest, prepared: PreparedWorld?)
    /// A small request read from its bytes (`PlainRequest`): nothing to free.
    case plain(PlainRequest)
}

extension ParsedRequest {
    /// The id a reply to this request carries, as the client wrote it; nil for a notification (no reply).
    var replyID: (id: JSON, idText: [UInt8]?)? {
        switch self {
        case .silent: return nil
        case .unreadable(let id, let idText, _): return (id, idText)
        case .refused(let request, _), .request(let request, _): return request.id.map { ($0, request.idText) }
        case .plain(let request): return (request.id, request.idText)
        }
    }

    /// Frees the params (but for parts the world keeps, which stay whole) iteratively and leaves nothing
    /// behind: taken out of the enum first, so that the release below holds the only reference.
    mutating func release() {
        guard case .request(var request, _) = self else {
            if case .refused(var request, _) = self {
                self = .silent
                JSON.release(&request.params)
            }
            return
        }
        self = .silent
        JSON.release(&request.params)
    }
}
