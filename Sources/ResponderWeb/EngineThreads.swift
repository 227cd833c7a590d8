import Foundation
import ResponderClient
import ResponderProtocol

/// Requests to the engine from the web server's async handlers. libzmq sockets have one owner and must never
/// block the concurrency pool: the connection lives on a thread of its own, and each request is a job handed
/// to that thread, its result handed back through a continuation.
final class EngineRequests: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [(ResponderConnection?) -> Void] = []
    private var failure: ClientError?

    init(address: EngineAddress, timeoutSeconds: Double) {
        let thread = Thread { [self] in
            var connection: ResponderConnection?
            do {
                let c = try ResponderConnection(address: address, timeoutSeconds: timeoutSeconds)
                _ = try? c.send(ClientHelloRequest(name: "responder web", kind: "cli-web"))
                connection = c
            } catch {
                condition.lock()
                failure = (error as? ClientError) ?? .transport("\(error)")
                condition.unlock()
            }
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job(connection)
            }
        }
        thread.name = "engine-requests"
        thread.start()
    }

    /// Runs `body` with the connection on the requests thread and returns what it returns.
    func perform<T: Sendable>(_ body: @escaping @Sendable (ResponderConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            jobs.append { [failure] connection in
                guard let connection else {
                    continuation.resume(throwing: failure ?? ClientError.transport("no connection to the engine"))
                    return
                }
                do { continuation.resume(returning: try body(connection)) } catch { continuation.resume(throwing: error) }
            }
            condition.signal()
            condition.unlock()
        }
    }
}

/// Follows the session on a thread of its own (SessionFollower: snapshot, then every event in seq order,
/// gaps recovered from the replay ring), handing each item to `inspector`. When the engine goes away it says
/// so and joins again from a fresh snapshot once it is back.
final class EngineFeed: @unchecked Sendable {
    init(address: @escaping @Sendable () throws -> EngineAddress, session: String, timeoutSeconds: Double, inspector: Inspector) {
        let thread = Thread {
            while true {
                do {
                    let connection = try ResponderConnection(address: try address(), timeoutSeconds: timeoutSeconds)
                    _ = try? connection.send(ClientHelloRequest(name: "responder web", kind: "cli-web"))
                    let follower = try SessionFollower(connection: connection, session: session)
                    var nextHello = Date().addingTimeInterval(30)
                    while true {
                        if Date() >= nextHello {
                            // Stay listed by `responder clients` (the engine's idle window).
                            nextHello = Date().addingTimeInterval(30)
                            _ = try? connection.send(ClientHelloRequest(name: "responder web", kind: "cli-web"))
                        }
                        guard let item = try follower.next(timeoutMs: 1000) else {
                            _ = try address()  // the engine is still there
                            continue
                        }
                        inspector.receive(item, connection: connection)
                    }
                } catch {
                    inspector.status("not following \(session): \(error)")
                    Thread.sleep(forTimeInterval: 2)
                }
            }
        }
        thread.name = "engine-feed"
        thread.start()
    }
}
