import ResponderCore
import ResponderProtocol

/// What one client can make the engine hold, beyond the per-session `Limits`: each a responderd
/// flag, reported by `engine.info` in `limits` (Protocol/README.md section 10).
public struct EngineBounds: Sendable, Equatable {
    /// Connections per socket (rpc, events); more are refused (`--max-clients`).
    public var maxClients: Int
    /// Replies queued to one client that does not read them; past it, its replies are dropped (`--reply-hwm`).
    public var replyHighWaterMark: Int
    /// Bytes of events kept per session for trace.replay, besides their count (`--replay-bytes`).
    public var replayBytes: Int
    /// Sessions per engine (`--max-sessions`).
    public var maxSessions: Int
    /// Milliseconds a new connection has to complete its ZeroMQ handshake before it is closed
    /// (`--handshake-timeout`): a connection that never speaks ZeroMQ holds one of `maxClients`' slots no longer.
    public var handshakeTimeoutMs: Int
    /// Longest `client.hello` `name` and `kind`, in bytes: the engine keeps both per client (`--max-client-string-bytes`).
    public var maxClientStringBytes: Int
    /// Subscriptions on the events socket: topic bytes, count and bytes per connection and on the socket
    /// (`--max-subscription-bytes`, `--max-subscriptions`, `--subscription-bytes`, `--max-subscriptions-total`,
    /// `--subscription-bytes-total`). A connection that goes over one is cut.
    public var subscriptions = SubscriptionBudget.Bounds(
        topicBytes: 256, perConnection: 10_000, bytesPerConnection: 1 << 20, total: 100_000, bytesTotal: 16 << 20)
    /// Bytes of requests held for one client behind its request being read off the engine thread, and for all
    /// clients (`--max-queued-bytes`, `--max-queued-bytes-total`); a request past either is refused unread.
    public var queuedBytesPerClient = 256 << 20
    public var queuedBytesTotal = 1 << 30
    /// Bytes of events kept for trace.replay in all sessions together (`--replay-bytes-total`).
    public var replayBytesTotal = 1 << 30

    public init(
        maxClients: Int = 1024, replyHighWaterMark: Int = 10_000, replayBytes: Int = 32 << 20, maxSessions: Int = 1000,
        handshakeTimeoutMs: Int = 5_000, maxClientStringBytes: Int = ClientHelloRequest.maxStringBytes
    ) {
        self.maxClients = maxClients
        self.maxClientStringBytes = maxClientStringBytes
        self.handshakeTimeoutMs = handshakeTimeoutMs
        self.replyHighWaterMark = replyHighWaterMark
        self.replayBytes = replayBytes
        self.maxSessions = maxSessions
    }

    /// Frames larger than this are dropped by libzmq as they arrive, before any is buffered, and their connection
    /// is closed; frames up to it but over `--max-message-bytes` are still answered with LIMIT_EXCEEDED.
    public static func maxFrameBytes(_ limits: Limits) -> Int {
        limits.maxMessageBytes > Int.max / 2 ? Int.max : 2 * limits.maxMessageBytes
    }

    /// Subscription messages libzmq holds for the engine per connection (the events socket's ZMQ_RCVHWM).
    static let subscriptionPipe = 16

    /// The largest frame on the events socket: libzmq drops a larger one from its size header and closes its
    /// connection. Subscription messages are a topic with a flag byte (or a ZMTP 3.1 command name), but the CURVE
    /// handshake's INITIATE (257 bytes and the peer's properties) is a frame too; a topic over `topicBytes` that
    /// fits is the engine's to refuse.
    var maxSubscriptionFrameBytes: Int64 { Int64(max(4096, subscriptions.topicBytes + 64)) }
}
