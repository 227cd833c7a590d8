import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in the order given, and lets async code await them.
/// The MCP SDK is async; libzmq calls block and each socket has one owner. Jobs that touch a socket run
/// here, so they never hold a thread of Swift's cooperative pool and the socket never changes hands.
final class JobThread: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread and returns its result.
    func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(returning: job()) } }
            ready.signal()
        }
    }
}
