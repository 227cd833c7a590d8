import ResponderProtocol

/// A method handler: reads its params from the context, answers a result or throws an RPCError.
typealias Handler = @Sendable (inout RequestContext) throws(RPCError) -> ReplyBody

/// The registry from method name to handler; one file per family adds its entries.
enum Methods {
    static let all: [String: Handler] = {
        var table: [String: Handler] = [:]
        for family in [EngineMethods.table, SessionMethods.table, TreeMethods.table, StreamMethods.table, DispatchMethods.table] {
            table.merge(family) { _, _ in fatalError("a method is registered twice") }
        }
        return table
    }()

    static var names: [String] { all.keys.sorted() }
}
