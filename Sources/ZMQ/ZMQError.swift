import CZMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reported by libzmq: the `errno` value, libzmq's text for it, and
/// the operation that failed (for example `"bind ipc:///tmp/x"`).
public struct ZMQError: Error, CustomStringConvertible, Equatable {
    /// The errno value (system or libzmq-specific, e.g. `ETERM`).
    public let errno: Int32
    /// `zmq_strerror(errno)`.
    public let message: String
    /// The operation that failed, e.g. `"bind tcp://127.0.0.1:5555"`.
    public let operation: String

    public init(errno code: Int32, operation: String) {
        self.errno = code
        self.message = String(cString: zmq_strerror(code))
        self.operation = operation
    }

    /// Captures `zmq_errno()` for the calling thread right after a failed call.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        let code = zmq_errno()
        return ZMQError(errno: code, operation: operation())
    }

    /// The call would block (non-blocking mode) or a send/receive timeout expired.
    public var isAgain: Bool { errno == EAGAIN }
    /// The context was terminated; the socket must be closed.
    public var isTerminated: Bool { errno == ETERM }
    /// A signal interrupted the call.
    public var isInterrupted: Bool { errno == EINTR }

    public var description: String {
        "\(operation): \(message) (errno \(errno))"
    }
}
