import Foundation

/// Runs a closure on a thread with a large stack and waits for it (deep values recurse when freed).
enum ThreadWithStack {
    static func run(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 1 << 29
        thread.start()
        done.wait()
    }
}
