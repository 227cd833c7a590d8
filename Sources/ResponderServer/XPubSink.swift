import Logging
import ZMQ

/// Sends events on the XPUB socket without ever blocking: a subscriber past its high-water mark loses
/// messages (and recovers them by seq and trace.replay) rather than slowing the engine down. Reads every
/// subscription and unsubscription (the socket is verbose both ways) into the `SubscriptionBudget`, and cuts a
/// peer that goes over a bound.
final class XPubSink: EventSink {
    let socket: ZMQSocket
    private let logger: Logger
    private var budget: SubscriptionBudget
    /// Cuts the connections of a peer, given its "Peer-Address".
    private let cut: (String) -> Int
    /// Topic bytes of departed connections' subscriptions since the heap was last trimmed.
    private var released = 0
    private static let properties = [ZMQProperty("User-Id"), ZMQProperty("Peer-Address")]
    /// libzmq's trie costs about 32 bytes a topic byte: 64 KiB of topics is 2 MiB of heap worth giving back.
    private static let trimBytes = 64 << 10

    init(
        socket: ZMQSocket, bounds: SubscriptionBudget.Bounds, logger: Logger,
        cut: @escaping (String) -> Int = { _ in 0 }
    ) {
        self.socket = socket
        self.logger = logger
        self.budget = SubscriptionBudget(bounds)
        self.cut = cut
    }

    func send(topic: [UInt8], body: [UInt8]) {
        _ = try? socket.send([topic, body], dontWait: true)
    }

    /// XPUB hands us subscribe/unsubscribe messages; the welcome message is sent by libzmq itself.
    func drainSubscriptions() {
        while let message = try? socket.receiveMessage(dontWait: true, properties: Self.properties) {
            guard let first = message.frames.first, let flag = first.first, flag <= 1 else { continue }
            let prefix = Array(first.dropFirst())
            // A departed connection's unsubscriptions carry no User-Id.
            let connection = message.properties[0].flatMap { PeerStamp(userID: $0) }?.connection
            if flag == 1 {
                if let reason = budget.subscribe(prefix, connection: connection ?? 0) {
                    let address = message.properties[1] ?? ""
                    let n = cut(address)
                    logger.warning(
                        "disconnecting events peer \(address.isEmpty ? "?" : address) (\(n) connections): \(reason)")
                }
            } else {
                budget.unsubscribe(prefix, connection: connection)
                if connection == nil { released += prefix.count }
            }
            logger.debug("\(flag == 1 ? "subscribe" : "unsubscribe") \"\(String(decoding: prefix, as: UTF8.self))\"")
        }
        // Freed trie nodes stay in glibc's heap, resident, unless it is trimmed.
        if released >= Self.trimBytes {
            released = 0
            MemoryTrim.afterLargeRequest()
        }
    }

    /// Reads pending subscriptions first: a client that saw its welcome message (libzmq sends it once the
    /// subscription is in place) and then sent a request must be counted, though the poll loop has not read
    /// the subscription yet.
    func mayDeliver(topic: [UInt8]) -> Bool {
        drainSubscriptions()
        // With no subscription at all (the common case), the budget's tables are not read: a method called on
        // the budget where this class keeps it copies it first, a retain and a release for each table.
        return budget.count > 0 && budget.matches(topic)
    }
}
