/// The topic prefixes the events socket's peers subscribe to, per connection and in total, against the
/// subscription bounds. libzmq keeps every subscription in a trie of one node per byte (about 32 bytes of memory
/// for each byte of a topic no one else subscribes to) before the engine sees it, so a bound cannot refuse a
/// subscription: it names the connection to cut, and libzmq frees that connection's subscriptions when it goes.
/// The XPUB socket is verbose both ways, so every subscription and unsubscription passes through here; a
/// departing connection's unsubscriptions come without its name (libzmq sends them after the connection is gone)
/// and are taken from a connection that holds the prefix, one that was cut first.
public struct SubscriptionBudget {
    public struct Bounds: Sendable, Equatable {
        /// Longest topic prefix, in bytes.
        public var topicBytes: Int
        /// Subscriptions and their bytes per connection.
        public var perConnection: Int
        public var bytesPerConnection: Int
        /// Subscriptions and their bytes on the whole socket.
        public var total: Int
        public var bytesTotal: Int

        public init(topicBytes: Int, perConnection: Int, bytesPerConnection: Int, total: Int, bytesTotal: Int) {
            self.topicBytes = topicBytes
            self.perConnection = perConnection
            self.bytesPerConnection = bytesPerConnection
            self.total = total
            self.bytesTotal = bytesTotal
        }
    }

    let bounds: Bounds
    /// Connection → the prefixes it holds (a second subscription to the same prefix is the same one, as in libzmq).
    private var held: [Int: Set<[UInt8]>] = [:]
    private var heldBytes: [Int: Int] = [:]
    /// Prefix → the connections that hold it.
    private var holders: [[UInt8]: Set<Int>] = [:]
    /// Connections cut for going over a bound, whose unsubscriptions are still to come.
    private var cut: Set<Int> = []
    private(set) var count = 0
    private(set) var bytes = 0

    init(_ bounds: Bounds) { self.bounds = bounds }

    /// Whether anyone holds a prefix of `topic`.
    func matches(_ topic: [UInt8]) -> Bool { holders.keys.contains { topic.starts(with: $0) } }

    /// Records a subscription; returns why `connection` must be cut when it takes the connection or the socket
    /// over a bound (once per connection), nil otherwise.
    mutating func subscribe(_ prefix: [UInt8], connection: Int) -> String? {
        if held[connection, default: []].insert(prefix).inserted {
            holders[prefix, default: []].insert(connection)
            heldBytes[connection, default: 0] += prefix.count
            count += 1
            bytes += prefix.count
        }
        guard !cut.contains(connection), let reason = overBound(connection, prefix) else { return nil }
        cut.insert(connection)
        return reason
    }

    /// Removes a subscription; `connection` nil: a departed connection's, taken from one that holds the prefix.
    mutating func unsubscribe(_ prefix: [UInt8], connection: Int?) {
        guard let from = holders[prefix], !from.isEmpty else { return }
        let owner: Int
        if let connection {
            guard from.contains(connection) else { return }
            owner = connection
        } else {
            owner = from.first { cut.contains($0) } ?? from.first!
        }
        holders[prefix]!.remove(owner)
        if holders[prefix]!.isEmpty { holders[prefix] = nil }
        held[owner]!.remove(prefix)
        heldBytes[owner]! -= prefix.count
        count -= 1
        bytes -= prefix.count
        if held[owner]!.isEmpty {
            held[owner] = nil
            heldBytes[owner] = nil
            cut.remove(owner)
        }
    }

    private func overBound(_ connection: Int, _ prefix: [UInt8]) -> String? {
        if prefix.count > bounds.topicBytes {
            return "a subscription of \(prefix.count) bytes (--max-subscription-bytes \(bounds.topicBytes))"
        }
        if let n = held[connection]?.count, n > bounds.perConnection {
            return "\(n) subscriptions (--max-subscriptions \(bounds.perConnection))"
        }
        if let n = heldBytes[connection], n > bounds.bytesPerConnection {
            return "\(n) bytes of subscriptions (--subscription-bytes \(bounds.bytesPerConnection))"
        }
        if count > bounds.total {
            return "\(count) subscriptions on the events socket (--max-subscriptions-total \(bounds.total))"
        }
        if bytes > bounds.bytesTotal {
            return
                "\(bytes) bytes of subscriptions on the events socket (--subscription-bytes-total \(bounds.bytesTotal))"
        }
        return nil
    }
}
