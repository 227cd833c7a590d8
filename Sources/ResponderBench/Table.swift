import Foundation

/// One figure of the suite: what we measured, its same-run baseline, their ratio and the goal it is held to.
struct Figure {
    var name: String
    var measured: String
    var baseline: String
    /// measured/baseline in the goal's direction (a time ratio for round trips, a rate ratio for throughput).
    var ratio: Double?
    var goal: String
    /// nil: no goal (a figure shown for the curve) or not measurable here.
    var met: Bool?
}

final class Report {
    private(set) var figures: [Figure] = []

    func add(_ figure: Figure) {
        figures.append(figure)
        let ratio = figure.ratio.map { String(format: "%.2f×", $0) } ?? "—"
        say("  \(figure.name): \(figure.measured) | baseline \(figure.baseline) | \(ratio) | goal \(figure.goal)")
    }

    func note(_ text: String) { say("  \(text)") }

    /// The table of every figure, Markdown so the README can hold it as printed.
    func printTable() {
        say("\n| Figure | Measured | Baseline (same run) | Ratio | Goal | |")
        say("| --- | --- | --- | --- | --- | --- |")
        for f in figures {
            let ratio = f.ratio.map { String(format: "%.2f×", $0) } ?? "—"
            let verdict = f.met.map { $0 ? "met" : "gap" } ?? ""
            say("| \(f.name) | \(f.measured) | \(f.baseline) | \(ratio) | \(f.goal) | \(verdict) |")
        }
    }
}

func micros(_ nanoseconds: Double) -> String { String(format: "%.1f µs", nanoseconds / 1000) }
func perSecond(_ rate: Double) -> String {
    rate >= 10_000 ? String(format: "%.0fk/s", rate / 1000) : String(format: "%.0f/s", rate)
}
func bytesText(_ n: Double) -> String {
    n >= 1_073_741_824
        ? String(format: "%.2f GB", n / 1_073_741_824)
        : n >= 1_048_576 ? String(format: "%.1f MB", n / 1_048_576) : String(format: "%.0f B", n)
}
func seconds(_ nanoseconds: Double) -> String {
    nanoseconds >= 1e9 ? String(format: "%.2f s", nanoseconds / 1e9) : String(format: "%.1f ms", nanoseconds / 1e6)
}
func elapsed(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// Writes a line at once (unbuffered), so progress shows as it happens also when the output goes to a file.
func say(_ text: String = "") {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
