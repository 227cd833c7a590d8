import ResponderJSON
import ResponderProtocol

/// A method handler: decodes its params, answers a result or throws an RPCError.
typealias Handler = @Sendable (inout RequestContext, RequestParams) throws -> ReplyBody

/// A request's params as read: a tree (`RPCRequest`), or a plain request's text (`PlainRequest`), which a
/// `QuickDecodable` type reads itself and any other type as a tree made from it.
enum RequestParams {
    case json(JSON)
    case plain(PlainParams)
}

/// A typed handler's answer: the method's `Response`, or a result already encoded (large trees, replayed events).
enum Reply<Response> {
    case typed(Response)
    /// `Response` already encoded as a value (when part of it is needed for an event too).
    case json(JSON)
    case encoded([UInt8])
    /// `Response` written by `write` straight into the reply's envelope, with room for `capacity` bytes of it:
    /// a result encoded apart would be copied into the envelope, an allocation and a copy of every byte (a hit
    /// test's reply is about 4 KB).
    case written(capacity: Int, write: (inout JSONWriter) -> Void)
}

/// The method table, built from the request types: each family file registers a handler per type, and a
/// test checks the table against `MethodRegistry` and Protocol/.
enum Methods {
    static let all: [String: Handler] = {
        var table = MethodTable()
        EngineMethods.register(&table)
        SessionMethods.register(&table)
        TreeMethods.register(&table)
        StreamMethods.register(&table)
        DispatchMethods.register(&table)
        return table.handlers
    }()

    static var names: [String] { all.keys.sorted() }
}

struct MethodTable {
    private(set) var handlers: [String: Handler] = [:]

    /// A method of the engine as a whole. `quick` reads plain params directly (`QuickDecodable`), passed as a
    /// closure of the concrete type: found by a cast of the request type and its result cast back, it would
    /// cost a dynamic cast and a metadata lookup on every request.
    mutating func add<R: RequestType>(
        _ type: R.Type, quick: (@Sendable (PlainParams) -> R?)? = nil,
        _ body: @escaping @Sendable (R, inout RequestContext) throws -> Reply<R.Response>
    ) {
        precondition(handlers[R.method] == nil, "\(R.method) is registered twice")
        precondition(
            (R.self is any QuickDecodable.Type) == (quick != nil),
            "\(R.method): a QuickDecodable request is registered with its reader")
        let validated = R.self is any ValidatedParams.Type
        let writer = WireByteEncoder.writer(for: R.Response.self)
        handlers[R.method] = { @Sendable (ctx: inout RequestContext, params: RequestParams) throws -> ReplyBody in
            try Self.run(body, &ctx, params, quick: quick, validated: validated, writer: writer)
        }
    }

    // Handlers are stored with untyped throws: swift-frontend 6.3.1 crashes lowering a generic closure that
    // captures a typed-throws closure with an inout parameter. Every handler throws RPCError only.
    private static func run<R: RequestType>(
        _ body: (R, inout RequestContext) throws -> Reply<R.Response>,
        _ ctx: inout RequestContext, _ params: RequestParams, quick: (@Sendable (PlainParams) -> R?)?,
        validated: Bool, writer: @Sendable (R.Response, inout JSONWriter) -> Bool
    ) throws(RPCError) -> ReplyBody {
        let request: R
        switch params {
        case .json(let json):
            request = try WireDecoder.decode(R.self, from: json)
        case .plain(let plain):
            if let quick, let read = quick(plain) {
                // Plain params, read directly; what the generic decoder would check besides types still holds.
                if validated, let validating = read as? any ValidatedParams { try validating.validate() }
                request = read
            } else {
                let json: JSON
                do { json = try plain.json() } catch { throw RPCError(.parseError, "invalid JSON: \(error)") }
                request = try WireDecoder.decode(R.self, from: json)
            }
        }
        do {
            return ReplyBody(try body(request, &ctx), for: ctx, writer: writer)
        } catch let error as RPCError {
            throw error
        } catch {
            throw RPCError(.internalError, "\(error)")
        }
    }

    /// A method of one session: the session named by `session` is resolved before the handler runs.
    mutating func add<R: SessionRequest>(
        _ type: R.Type, quick: (@Sendable (PlainParams) -> R?)? = nil,
        _ body: @escaping @Sendable (R, SessionHost, inout RequestContext) throws -> Reply<R.Response>
    ) {
        add(type, quick: quick) { (request: R, ctx: inout RequestContext) throws -> Reply<R.Response> in
            let host = try ctx.session(request.sessionName)
            try SessionOwnership.check(request, host)
            return try body(request, host, &ctx)
        }
    }
}

extension ReplyBody {
    /// `writer` writes a `.typed` response (`WireByteEncoder.writer(for:)`).
    init<Response: Encodable>(
        _ reply: Reply<Response>, for ctx: RequestContext, writer: (Response, inout JSONWriter) -> Bool
    ) {
        switch reply {
        case .typed(let response):
            // A notification is not answered (JSON-RPC): nothing to write.
            guard let id = ctx.requestID else {
                self = .json(.null)
                return
            }
            // Written inside its envelope: written apart, the result would be an allocation and two copies (into
            // the envelope, then out of the writer), a large part of a light request. Most results are short:
            // a long one grows (from 1 KB the text is handed over as written).
            var w = Self.envelope(id: id, ctx, room: 512)
            if writer(response, &w) {
                w.endObject()
                self = .reply(w.takeBytes())
            } else {
                // A value the byte writer leaves to the tree encoder: that encoder, without asking the writer again.
                self = .encoded(WireEncoder.encodeBytes(response))
            }
        case .json(let value): self = .json(value)
        case .encoded(let bytes): self = .encoded(bytes)
        case .written(let capacity, let write):
            guard let id = ctx.requestID else {
                self = .json(.null)
                return
            }
            var w = Self.envelope(id: id, ctx, room: capacity + 128)
            write(&w)
            w.endObject()
            self = .reply(w.takeBytes())
        }
    }

    /// A reply up to its `result`'s value, in room for `room` bytes (sent and dropped: handed over as written).
    private static func envelope(id: JSON, _ ctx: RequestContext, room: Int) -> JSONWriter {
        var w = JSONWriter(reservingCapacity: room)
        RequestProcessor.beginReply(id: id, idText: ctx.requestIDText, to: &w)
        w.key(static: "result")
        return w
    }
}
