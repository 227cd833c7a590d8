import ResponderClient
import ResponderJSON
import ResponderProtocol
import Synchronization

/// The bridge's own methods, `bridge.subscribe` and `bridge.unsubscribe` (Protocol/README.md, "The stdio
/// bridge"), and the subscriptions they hold: at most one per session.
package final class BridgeSubscriptions: Sendable {
    private let active = Mutex<[String: BridgeSubscription]>([:])
    private let writer: FrameWriter
    private let connector: EngineThread.Connector

    /// `connector`: how each subscription's own connection finds the engine and names itself.
    package init(writer: FrameWriter, connector: EngineThread.Connector) {
        self.writer = writer
        self.connector = connector
    }

    /// Carries out a `bridge.*` request (`body`: as the client wrote it); its reply (if it has an id) is
    /// written here or, for a subscription, once the subscription is live.
    package func handle(_ request: RPCRequest, body: [UInt8]) {
        let writtenID = ExactID.written(in: body)
        do throws(RPCError) {
            switch request.method {
            case "bridge.subscribe": try subscribe(request, writtenID: writtenID)
            case "bridge.unsubscribe": try unsubscribe(request, writtenID: writtenID)
            default:
                throw RPCError(
                    .methodNotFound,
                    "no bridge method \(request.method) (the bridge has bridge.subscribe and bridge.unsubscribe)",
                    [("method", .string(request.method))])
            }
        } catch {
            answer(request, writtenID, .failure(error))
        }
    }

    /// Stops every subscription (stdin closed).
    package func stopAll() {
        let all = active.withLock { a in
            defer { a = [:] }
            return Array(a.values)
        }
        for s in all { s.stop() }
    }

    private func subscribe(_ request: RPCRequest, writtenID: [UInt8]?) throws(RPCError) {
        var params = Params(request.params)
        let session = try params.string("session") ?? "default"
        let streams = try params.streams("streams")
        let since = try params.integer("since")
        try params.done()
        let subscription = BridgeSubscription(
            session: session, streams: streams, since: since, requestID: request.id == nil ? nil : writtenID,
            connector: connector, writer: writer
        ) { [weak self] ended in
            self?.active.withLock { a in if a[ended.session] === ended { a[ended.session] = nil } }
        }
        try active.withLock { (a) throws(RPCError) in
            guard a[session] == nil else {
                throw RPCError(
                    .invalidParams, "already subscribed to \(session); bridge.unsubscribe first", [("field", "session")]
                )
            }
            a[session] = subscription
        }
        subscription.start()
    }

    private func unsubscribe(_ request: RPCRequest, writtenID: [UInt8]?) throws(RPCError) {
        var params = Params(request.params)
        let session = try params.string("session")
        try params.done()
        let stopped = active.withLock { a in
            let names = session.map { [$0] } ?? Array(a.keys)
            return names.compactMap { a.removeValue(forKey: $0) }
        }
        for s in stopped { s.stop() }
        answer(request, writtenID, .success(["sessions": JSON(stopped.map(\.session).sorted())]))
    }

    private func answer(_ request: RPCRequest, _ writtenID: [UInt8]?, _ outcome: Result<JSON, RPCError>) {
        guard let id = request.id else { return }  // a notification: carried out, never answered
        switch outcome {
        case .success(let result): writer.write(ExactID.reply(RPCResponse.result(id: id, result), id: writtenID))
        case .failure(let error): writer.write(ExactID.reply(RPCResponse.error(id: id, error), id: writtenID))
        }
    }

    /// Strict params, as the engine reads its own: a wrong type or an unknown member is INVALID_PARAMS naming it.
    private struct Params {
        var members: [(key: String, value: JSON)]

        init(_ params: JSON) { members = params.objectMembers ?? [] }

        private mutating func take(_ key: String) -> JSON? {
            guard let i = members.lastIndex(where: { $0.key == key }) else { return nil }
            defer { members.removeAll { $0.key == key } }
            let value = members[i].value
            return value.isNull ? nil : value
        }

        mutating func string(_ key: String) throws(RPCError) -> String? {
            guard let value = take(key) else { return nil }
            guard let s = value.stringValue else {
                throw RPCError(.invalidParams, "\(key) must be a string", [("field", .string(key))])
            }
            return s
        }

        mutating func integer(_ key: String) throws(RPCError) -> Int? {
            guard let value = take(key) else { return nil }
            guard let n = value.intValue, n >= 0 else {
                throw RPCError(.invalidParams, "\(key) must be an integer ≥ 0", [("field", .string(key))])
            }
            return n
        }

        mutating func streams(_ key: String) throws(RPCError) -> [EventStream]? {
            guard let value = take(key) else { return nil }
            guard let items = value.arrayValue, !items.isEmpty else {
                throw RPCError(
                    .invalidParams, "\(key) must be a non-empty array of tree, trace, focus", [("field", .string(key))])
            }
            var streams: [EventStream] = []
            for (i, item) in items.enumerated() {
                guard let s = item.stringValue.flatMap(EventStream.init(rawValue:)) else {
                    throw RPCError(
                        .invalidParams, "\(key)[\(i)] must be tree, trace or focus",
                        [("field", .string("\(key)[\(i)]"))])
                }
                streams.append(s)
            }
            return streams
        }

        func done() throws(RPCError) {
            if let extra = members.first {
                throw RPCError(.invalidParams, "unknown param \(extra.key)", [("field", .string(extra.key))])
            }
        }
    }
}
