import Foundation
import ResponderTestSupport
import Testing

/// The CLI tests read their children's output through `PipeReader`; a chunk lost or an end missed would show up
/// there as a flaky missing line, so it is checked here on its own, with more output than a pipe holds and many
/// children at once.
@Suite struct PipeReaderTests {
    @Test func readsEveryByteOfManyChildrenToTheirEnds() throws {
        let children = 24
        // 200,000 bytes each: three times a Linux pipe's 64 KiB, so the child blocks until the reader catches up.
        let script = "i=0; while [ $i -lt 2000 ]; do printf '%099d\\n' $i; i=$((i+1)); done"
        let received = (0..<children).map { _ in Received() }
        var running: [(Process, PipeReader)] = []
        for index in 0..<children {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let sink = received[index]
            running.append((process, PipeReader(pipe) { sink.append($0) }))
        }
        let deadline = Date().addingTimeInterval(patienceSeconds)
        for (index, (process, reader)) in running.enumerated() {
            #expect(reader.waitForEnd(timeout: patienceSeconds), "child \(index)'s output did not end")
            // A reader that stopped early leaves the child blocked on a full pipe: end it rather than hang.
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let lines = received[index].text.split(separator: "\n")
            #expect(lines.count == 2000, "child \(index): \(lines.count) lines")
            #expect(lines.last.map { Int($0) } == 1999, "child \(index)'s last line: \(lines.last ?? "")")
        }
        // The end, once reached, is reported to every later wait as well.
        #expect(running[0].1.waitForEnd(timeout: 0))
    }
}

/// One child's output as it arrives on its reader's thread.
private final class Received: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()
    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
