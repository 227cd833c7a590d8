import ArgumentParser
import Foundation
import ResponderOutput

/// A screen coordinate given as an argument: any finite number, negative ones included (`responder tap -5 10`;
/// `Responder.main` lets `-5` through as a value rather than an option).
struct Coordinate: ExpressibleByArgument, Sendable {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        var text = Substring(argument)
        if text.first == NegativeNumbers.minus { text = "-" + text.dropFirst() }
        guard let v = Double(text), v.isFinite else { return nil }
        value = v
    }

    var defaultValueDescription: String { Output.number(value) }
}

/// The argument parser reads `-5` as an option. The commands that take coordinates accept negative ones: when
/// a command line fails to parse, it is parsed again with each negative number after such a command (and
/// before a `--`) marked as a value.
enum NegativeNumbers {
    /// U+2212 MINUS SIGN: a value that starts with it is not taken for an option; `Coordinate` reads it as "-".
    static let minus: Character = "\u{2212}"

    /// The commands whose arguments are coordinates.
    static let commands: Set<String> = ["hit", "tap", "drag", "press-hold", "draw"]

    /// The flags of those commands (options that take no value), and draw's options that take coordinates
    /// (`--hit -5 10`). A negative number after any other option is that option's value (`--duration -1`), left
    /// for the option to read or refuse.
    static let flags: Set<String> = ["--json", "--explain", "-h", "--help", "--hit", "--tap"]

    /// The arguments with negative numbers marked, or nil when there is none to mark.
    static func mark(_ arguments: [String]) -> [String]? {
        guard let start = arguments.firstIndex(where: commands.contains) else { return nil }
        var out = arguments
        var changed = false
        for i in out.indices where i > start {
            if out[i] == "--" { break }
            guard isNegativeNumber(out[i]) else { continue }
            let previous = arguments[i - 1]
            if previous.hasPrefix("-"), !flags.contains(previous), !isNegativeNumber(previous) { continue }
            out[i] = String(minus) + out[i].dropFirst()
            changed = true
        }
        return changed ? out : nil
    }

    /// `-5`, `-0.5`, `-.5`, `-1e3`.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.count > 1, text.first == "-", let second = text.dropFirst().first, second.isNumber || second == "."
        else { return false }
        return Double(text) != nil
    }

    /// The parser's words for an error, with the marked minus signs as the user typed them.
    static func unmark(_ text: String) -> String { text.replacingOccurrences(of: String(minus), with: "-") }
}
