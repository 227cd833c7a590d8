import Foundation

/// Reads stdin until it closes, handing each framed message body to `message` and each framing error to
/// `error`, on the calling thread.
package enum StdinPump {
    package static func run(message: ([UInt8]) -> Void, onError error: (String) -> Void) {
        var reader = FrameReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN {
                // A non-blocking stdin (the parent's choice): wait until there is something to read.
                var item = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                _ = poll(&item, 1, -1)
                continue
            }
            guard n > 0 else { break }
            reader.append(chunk[..<n])
            while let item = reader.next() {
                switch item {
                case .message(let body): message(body)
                case .error(let text): error(text)
                }
            }
        }
        if reader.isMidMessage { error("stdin closed in the middle of a message") }
    }
}
