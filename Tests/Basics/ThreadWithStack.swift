import Foundation

/// Runs a closure on a thread with a small stack and waits for it: a deep value freed (or walked) recursively
/// there overflows the stack and crashes the test run, so a test passing there proves the work is iterative.
package enum ThreadWithStack {
    /// 512 KiB: room for about 3,000 levels of a recursive free, against documents a million levels deep.
    package static let small = 512 << 10

    package static func run(stackSize: Int = small, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }
}
