import Foundation

/// Reads a pipe to its end with blocking reads on a thread of its own, handing each chunk to `onData`.
///
/// `FileHandle.readabilityHandler` is not used: on Linux its dispatch read source is torn down asynchronously,
/// and that teardown can race the descriptor's close and crash the whole test process inside libdispatch's
/// event loop (`_dispatch_event_loop_drain`). A blocking read never registers the descriptor with libdispatch.
final class PipeReader: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe, onData: @escaping @Sendable (Data) -> Void) {
        // The handle is captured so its descriptor stays open until the thread has read to the end.
        let handle = pipe.fileHandleForReading
        let ended = self.ended
        let thread = Thread {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    onData(Data(chunk[..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            ended.signal()
        }
        thread.name = "pipe reader"
        thread.start()
    }

    /// Waits until everything written to the pipe has been read (its writers have all closed it); false if that
    /// did not happen within `timeout` seconds.
    @discardableResult
    func waitForEnd(timeout: Double) -> Bool {
        guard ended.wait(timeout: .now() + timeout) == .success else { return false }
        ended.signal()
        return true
    }
}
