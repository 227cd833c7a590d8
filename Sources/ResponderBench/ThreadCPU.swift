import Foundation

/// CPU time of a process's threads from /proc/<pid>/task/*/schedstat (nanoseconds on a CPU, user and kernel
/// together, exact where /proc's stat counts 10 ms ticks), split between libzmq's I/O threads ("ZMQbg/IO/…",
/// which move the bytes) and the process's own (which answer). A round trip's time is mostly the two sides'
/// CPU on its path: this shows which side's share a ratio comes from.
struct ThreadCPU {
    var own: Double = 0
    var io: Double = 0

    static func sample(_ pid: Int32) -> ThreadCPU {
        var total = ThreadCPU()
        let tasks = "/proc/\(pid)/task"
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(tid)/schedstat", encoding: .utf8),
                let first = stat.split(separator: " ").first, let ns = Double(first)
            else { continue }
            let name = (try? String(contentsOfFile: "\(tasks)/\(tid)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("ZMQbg/IO") { total.io += ns } else if !name.hasPrefix("ZMQbg/") { total.own += ns }
        }
        return total
    }

    static func - (a: ThreadCPU, b: ThreadCPU) -> ThreadCPU { ThreadCPU(own: a.own - b.own, io: a.io - b.io) }
    static func + (a: ThreadCPU, b: ThreadCPU) -> ThreadCPU { ThreadCPU(own: a.own + b.own, io: a.io + b.io) }
    func per(_ n: Int) -> ThreadCPU { ThreadCPU(own: own / Double(n), io: io / Double(n)) }

    /// Measures `body`'s CPU in `pid`'s threads.
    static func during(_ pid: Int32, _ body: () throws -> Void) rethrows -> ThreadCPU {
        let before = sample(pid)
        try body()
        return sample(pid) - before
    }
}
