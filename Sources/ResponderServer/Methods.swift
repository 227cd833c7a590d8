import ResponderJSON
import ResponderProtocol

/// A method handler: decodes its params and answers its whole reply (nil for a notification), or throws an
/// RPCError.
typealias Handler = @Sendable (inout RequestContext, RequestParams) throws -> WrittenText?

/// A request's params as read: a tree (`RPCRequest`), or a plain request's text (`PlainRequest`), which a
/// `QuickDecodable` type reads itself and any other type as a tree made from it.
enum RequestParams {
    case json(JSON)
    case plain(PlainParams)
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
        _ body: @escaping @Sendable (R, inout RequestContext) throws -> any ResponseBody<R.Response>
    ) {
        precondition(handlers[R.method] == nil, "\(R.method) is registered twice")
        precondition(
            (R.self is any QuickDecodable.Type) == (quick != nil),
            "\(R.method): a QuickDecodable request is registered with its reader")
        let writer = WireByteEncoder.writer(for: R.Response.self)
        handlers[R.method] = { @Sendable (ctx: inout RequestContext, params: RequestParams) throws -> WrittenText? in
            try Self.run(body, &ctx, params, quick: quick, writer: writer)
        }
    }

    // Handlers are stored with untyped throws: swift-frontend 6.3.1 crashes lowering a generic closure that
    // captures a typed-throws closure with an inout parameter. Every handler throws RPCError only.
    private static func run<R: RequestType>(
        _ body: (R, inout RequestContext) throws -> any ResponseBody<R.Response>,
        _ ctx: inout RequestContext, _ params: RequestParams, quick: (@Sendable (PlainParams) -> R?)?,
        writer: @Sendable (R.Response, inout JSONWriter) -> Bool
    ) throws(RPCError) -> WrittenText? {
        let request: R
        switch params {
        case .json(let json):
            request = try WireDecoder.decode(R.self, from: json)
        case .plain(let plain):
            if let quick, let read = quick(plain) {
                // Plain params, read directly; what the generic decoder would check besides types still holds.
                try read.validateParams()
                request = read
            } else {
                let json: JSON
                do { json = try plain.json() } catch { throw RPCError(.parseError, "invalid JSON: \(error)") }
                request = try WireDecoder.decode(R.self, from: json)
            }
        }
        do {
            return try body(request, &ctx).reply(to: ctx, typed: writer)
        } catch let error as RPCError {
            throw error
        } catch {
            throw RPCError(.internalError, "\(error)")
        }
    }

    /// A method of one session: the session named by `session` is resolved before the handler runs.
    mutating func add<R: SessionRequest>(
        _ type: R.Type, quick: (@Sendable (PlainParams) -> R?)? = nil,
        _ body: @escaping @Sendable (R, SessionHost, inout RequestContext) throws -> any ResponseBody<R.Response>
    ) {
        add(type, quick: quick) { (request: R, ctx: inout RequestContext) throws -> any ResponseBody<R.Response> in
            let host = try ctx.session(request.sessionName)
            try SessionOwnership.check(request, host)
            return try body(request, host, &ctx)
        }
    }
}
