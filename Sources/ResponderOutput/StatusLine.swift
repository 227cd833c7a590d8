import Foundation
import ResponderClient

/// One line of progress on standard error, rewritten in place, when standard error is a terminal: reading a
/// large file, sending a large request, waiting for the engine. It is erased before anything else is printed,
/// so it never mixes with the output; when standard error is not a terminal nothing is shown.
package enum StatusLine {
    /// Requests and files from this size on say what they are doing at once; smaller ones only once a wait
    /// passes a second.
    package static let largeBytes = 1_000_000

    nonisolated(unsafe) private static var shown = false
    package static let enabled = isatty(STDERR_FILENO) == 1

    package static func show(_ text: String) {
        guard enabled else { return }
        write("\r\u{1B}[K" + text)
        shown = true
    }

    package static func clear() {
        guard shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    private static func write(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `12.6 MB`, `0.4 MB`.
    package static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    /// Shows how a request goes: `session.create: sending 12.6 MB…`, then once a second
    /// `session.create: 12.6 MB sent; waiting for the engine… 3 s (timeout 73 s)`.
    package static func report(_ progress: RequestProgress) {
        switch progress {
        case .sending(let method, let bytes):
            if bytes >= largeBytes { show("\(method): sending \(megabytes(bytes)) to the engine…") }
        case .waiting(let method, let bytes, let elapsed, let timeout):
            let sent = bytes >= largeBytes ? "\(megabytes(bytes)) sent; " : ""
            show(
                "\(method): \(sent)waiting for the engine… \(Int(elapsed)) s (timeout \(ClientError.seconds(timeout)) s)"
            )
        case .finished:
            clear()
        }
    }
}
