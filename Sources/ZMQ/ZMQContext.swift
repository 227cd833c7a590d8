import CZMQ
import Foundation

/// A libzmq context (`zmq_ctx_new`). Thread-safe; share it freely.
///
/// Every `ZMQSocket` created from a context must be closed before
/// `terminate()` can return: `zmq_ctx_term` blocks until all of the context's
/// sockets are closed. Blocking calls on still-open sockets fail with `ETERM`
/// (`ZMQError.isTerminated`) once termination starts; their owners should then
/// close them. Sockets keep their context alive, so `deinit` only runs after
/// every socket object is gone. Set a linger (`setLinger(0)`) on sockets that
/// may hold undeliverable messages, or termination waits for delivery.
public final class ZMQContext: @unchecked Sendable {
    // @unchecked: libzmq contexts are thread-safe, and `handle`, the one mutable field, is read and written
    // only under `lock` (a raw pointer cannot live in a Mutex's Sendable state). Nil once terminated.
    private var handle: UnsafeMutableRawPointer?
    private let lock = NSLock()

    public init() throws(ZMQError) {
        guard let ctx = zmq_ctx_new() else { throw .last("zmq_ctx_new") }
        handle = ctx
    }

    deinit { terminate() }

    /// True once `terminate()` has been called.
    public var isTerminated: Bool {
        lock.lock(); defer { lock.unlock() }
        return handle == nil
    }

    /// Terminates the context (`zmq_ctx_term`). Blocks until every socket of
    /// this context is closed. Idempotent: later calls return immediately.
    public func terminate() {
        lock.lock()
        let ctx = handle
        handle = nil
        lock.unlock()
        guard let ctx else { return }
        while zmq_ctx_term(ctx) != 0 && zmq_errno() == EINTR {}
    }

    /// Runs `body` with the live context pointer while holding the lock, so a
    /// concurrent `terminate()` cannot free it underneath. Keep `body` short.
    func withHandle<T>(
        _ operation: String, _ body: (UnsafeMutableRawPointer) throws(ZMQError) -> T
    ) throws(ZMQError) -> T {
        lock.lock(); defer { lock.unlock() }
        guard let ctx = handle else { throw ZMQError(errno: ETERM, operation: operation) }
        return try body(ctx)
    }
}
